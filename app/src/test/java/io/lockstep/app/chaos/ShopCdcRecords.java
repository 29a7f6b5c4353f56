package io.lockstep.app.chaos;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.app.demo.ShopChange;
import io.lockstep.app.demo.ShopSchema;
import io.lockstep.app.demo.ShopTransaction;
import io.lockstep.app.demo.ShopTransaction.CdcMessage;
import io.lockstep.app.demo.ShopTransactionGenerator;
import io.lockstep.app.demo.ShopWorkload;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The Kafka records of one shop transaction in {@link ProcessKillChaosTest}: the MySQL connector's messages as
 * {@code io.lockstep.app.demo.DebeziumShopEncoder} writes them (BEGIN; data events whose {@code source} carries
 * the GTID {@code <server uuid>:<sequence>}, the binlog file and position; a tombstone after each delete; END), with
 * two additions for the oracles: every row image carries its key's {@value ShopRows#VERSION_COLUMN} (the
 * transaction's sequence number), and after the changes come one insert per change into the DUPLICATE KEY change
 * log {@value ShopRows#LOG_TABLE} (same envelope and {@code source} as the transaction's last data event, the next
 * {@code total_order}), counted in END's {@code event_count} and {@code data_collections}. The transaction keeps
 * its GTID, binlog position and commit time, so a copy of its records is what a restarted connector sends again
 * (docs/input-formats.md, "Source commit positions and re-sends").
 */
final class ShopCdcRecords {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** {@code ts_ms} of transaction 1; the generator's rows use the same time plus the sequence in seconds. */
    private static final Instant FIRST_COMMIT = Instant.parse("2026-01-01T00:00:01Z");

    private ShopCdcRecords() {
    }

    /**
     * @return a generator for the workload whose transaction {@code n} commits at 2026-01-01T00:00:00Z plus
     *     {@code n} seconds: commit times grow with the GTID as on a MySQL server (the same tables as
     *     {@link ShopReplaySource#generator}, which commits every transaction at time 0)
     */
    static ShopTransactionGenerator generator(ShopWorkload workload) {
        return new ShopTransactionGenerator(workload, new CommitClock());
    }

    /**
     * @param transaction a generated transaction with its MySQL-shaped messages
     * @return its records in order: BEGIN, the data events (versioned, tombstones kept), the change-log inserts, END
     */
    static List<CdcMessage> of(ShopTransaction transaction) {
        List<CdcMessage> messages = transaction.messages();
        List<CdcMessage> records = new ArrayList<>(messages.size() + transaction.changes().size());
        records.add(messages.get(0));
        ObjectNode last = null;
        for (CdcMessage message : messages.subList(1, messages.size() - 1)) {
            if (message.value() == null) {
                records.add(message); // the tombstone after a delete
                continue;
            }
            ObjectNode event = (ObjectNode) read(message.value());
            versioned(event, "before", transaction);
            versioned(event, "after", transaction);
            records.add(new CdcMessage(message.key(), event.toString()));
            last = event;
        }
        List<ShopChange> changes = transaction.changes();
        long totalOrder = last.get("transaction").get("total_order").asLong();
        for (int i = 0; i < changes.size(); i++) {
            long eventId = ShopRows.eventId(transaction.sequence(), i);
            ObjectNode event = last.deepCopy();
            event.putNull("before");
            event.putObject("after").put("event_id", eventId).put("txn_seq", transaction.sequence())
                    .put("tbl", changes.get(i).table().name()).put("op", changes.get(i).op().code());
            ((ObjectNode) event.get("source")).put("table", ShopRows.LOG_TABLE);
            event.put("op", "c");
            ((ObjectNode) event.get("transaction")).put("total_order", ++totalOrder)
                    .put("data_collection_order", i + 1);
            records.add(new CdcMessage("{\"event_id\":" + eventId + "}", event.toString()));
        }
        ObjectNode end = (ObjectNode) read(messages.get(messages.size() - 1).value());
        end.put("event_count", totalOrder);
        ((ArrayNode) end.get("data_collections")).addObject()
                .put("data_collection", ShopSchema.DATABASE + "." + ShopRows.LOG_TABLE)
                .put("event_count", changes.size());
        records.add(new CdcMessage(messages.get(messages.size() - 1).key(), end.toString()));
        return records;
    }

    private static void versioned(ObjectNode event, String image, ShopTransaction transaction) {
        if (event.get(image).isObject()) {
            ((ObjectNode) event.get(image)).put(ShopRows.VERSION_COLUMN, transaction.sequence());
        }
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("generated Debezium message is not JSON: " + json, e);
        }
    }

    /** One second per call from {@link #FIRST_COMMIT}: the generator asks once per transaction. */
    private static final class CommitClock extends Clock {
        private long calls;

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("the commit clock is UTC only");
        }

        @Override
        public Instant instant() {
            return FIRST_COMMIT.plusSeconds(calls++);
        }
    }
}
