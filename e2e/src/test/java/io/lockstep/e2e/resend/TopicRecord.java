package io.lockstep.e2e.resend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;

/**
 * One Kafka record of a Debezium topic, routed as docs/sources.md describes (data events and transaction records in
 * one topic) or in Debezium's default layout (a topic per table and the transaction topic), JSON converter with
 * schemas: where it is, its key and value text exactly as the converter wrote them, and what it is to a transaction
 * assembler.
 *
 * @param topic the Kafka topic
 * @param partition the Kafka partition
 * @param offset the Kafka offset
 * @param key the key's JSON text, {@code null} for none
 * @param value the value's JSON text, {@code null} for a tombstone
 */
public record TopicRecord(String topic, int partition, long offset, String key, String value) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a record is to a transaction assembler. */
    public enum Kind { BEGIN, END, DATA, TOMBSTONE }

    /** @return the value's {@code payload} (the value itself without schemas); a missing node for a tombstone */
    public JsonNode payload() {
        if (value == null) {
            return JSON.missingNode();
        }
        try {
            JsonNode root = JSON.readTree(value);
            return root.has("payload") && root.has("schema") ? root.get("payload") : root;
        } catch (java.io.IOException e) {
            throw new UncheckedIOException("record at offset " + offset + " is not JSON", e);
        }
    }

    /** @return BEGIN or END for a transaction record, DATA for a change event, TOMBSTONE for a null value */
    public Kind kind() {
        JsonNode payload = payload();
        if (payload.isMissingNode() || payload.isNull()) {
            return Kind.TOMBSTONE;
        }
        String status = payload.path("status").asText("");
        if (status.equals("BEGIN")) {
            return Kind.BEGIN;
        }
        if (status.equals("END")) {
            return Kind.END;
        }
        return Kind.DATA;
    }

    /**
     * @return the transaction's id as Debezium wrote it: {@code id} of BEGIN/END, {@code transaction.id} of a data
     *     event ({@code "<xid>:<lsn>"} for PostgreSQL); {@code null} for a tombstone or an event outside a transaction
     */
    public String transactionId() {
        JsonNode payload = payload();
        JsonNode id = kind() == Kind.DATA ? payload.path("transaction").path("id") : payload.path("id");
        return id.isTextual() ? id.asText() : null;
    }

    /**
     * @return the PostgreSQL xid of the transaction, the part of the id before the {@code :}: the same on BEGIN, the
     *     data events and END of one transaction (docs/input-formats.md); {@code null} outside a transaction
     */
    public String xid() {
        String id = transactionId();
        if (id == null) {
            return null;
        }
        int colon = id.indexOf(':');
        return colon < 0 ? id : id.substring(0, colon);
    }

    /** @return {@code transaction.total_order} of a data event (1-based), 0 for other records */
    public long totalOrder() {
        return kind() == Kind.DATA ? payload().path("transaction").path("total_order").asLong(0) : 0;
    }

    /** @return {@code event_count} of an END record, 0 for other records */
    public long eventCount() {
        return kind() == Kind.END ? payload().path("event_count").asLong(0) : 0;
    }

    /**
     * @return what must be equal when this record is sent again: for a data event the transaction id, the order, the
     *     operation, the source position and the row images; for BEGIN/END the whole payload but {@code ts_ms}
     *     (Debezium stamps it when it makes the record)
     */
    public JsonNode identity() {
        JsonNode payload = payload();
        if (kind() == Kind.DATA) {
            ObjectNode identity = JSON.createObjectNode();
            identity.set("transaction", payload.path("transaction"));
            identity.set("op", payload.path("op"));
            identity.set("lsn", payload.path("source").path("lsn"));
            identity.set("txId", payload.path("source").path("txId"));
            identity.set("table", payload.path("source").path("table"));
            identity.set("before", payload.path("before"));
            identity.set("after", payload.path("after"));
            return identity;
        }
        if (payload.isObject()) {
            ObjectNode identity = ((ObjectNode) payload).deepCopy();
            identity.remove("ts_ms");
            return identity;
        }
        return payload;
    }

    /** @return a short description for messages: offset, kind, transaction id and order */
    public String describe() {
        Kind kind = kind();
        return "offset " + offset + " " + kind + (kind == Kind.TOMBSTONE ? "" : " " + transactionId()
                + (kind == Kind.DATA ? " #" + totalOrder() : kind == Kind.END ? " (" + eventCount() + " events)" : ""));
    }
}
