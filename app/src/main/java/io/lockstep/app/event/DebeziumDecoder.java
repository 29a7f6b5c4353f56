package io.lockstep.app.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes Debezium JSON: data change events and, with {@code provide.transaction.metadata=true}, the BEGIN/END records
 * of the transaction topic (docs/input-formats.md#debezium). Both the Kafka Connect envelope
 * ({@code {"schema":..., "payload":...}}) and the schema-less form are read.
 *
 * <p>Mapping:
 * <ul>
 *   <li>{@code status} BEGIN/END: a {@link SourceEventKind#BEGIN} or {@link SourceEventKind#END} event;
 *       END carries {@code event_count} and {@code data_collections[].event_count}.
 *   <li>{@code op} {@code c}, {@code u}, {@code r}: an upsert of {@code after}; {@code d}: a delete of
 *       {@code before} ({@code "__op":1}). A {@code u} whose key columns differ between {@code before}
 *       and {@code after} also carries the delete of the old key
 *       ({@link SourceEvent#getPreviousKeyDeleteRow()}). Key columns come from the record key (its field
 *       names), else from the configured key columns of the table; without either, a {@code u} is a
 *       plain upsert. (Debezium's default turns a key change into a delete and a create, which needs
 *       nothing special.)
 *   <li>A data event without a {@code transaction} block, or with {@code op} {@code r} (snapshot), is
 *       {@link SourceEvent#isStandalone() standalone}: loaded as its own transaction. The first data event
 *       without a block (not a snapshot row) is said at WARN, once per decoder: it means the connector runs
 *       without transaction metadata, and rows of one source transaction are then not loaded atomically.
 *   <li>The source table is {@code source.schema} (PostgreSQL, SQL Server) or else {@code source.db}
 *       (MySQL), plus {@code source.table}: the same name Debezium uses as data collection in END.
 *   <li>A schema change event ({@code ddl}, {@code tableChanges}) is a {@link SourceEventKind#SCHEMA_CHANGE}
 *       with the table's columns after the change; a {@code null} value (a tombstone) and a heartbeat
 *       ({@code ts_ms} only) decode to nothing.
 *   <li>The source commit position ({@link CommitPositionFields}): the commit source
 *       ({@code source.connector:source.name}) and MySQL {@code source.gtid} of data events; the position in the
 *       BEGIN/END id (PostgreSQL commit LSN, MySQL GTID or binlog file and BEGIN position) and END's {@code ts_ms}.
 *   <li>{@code transaction.total_order} is kept ({@link SourceEvent#getTotalOrder()}) so that the
 *       assembler can drop events the connector sends twice after a restart.
 * </ul>
 * Ops {@code t} (truncate) and {@code m} (message) are rejected as bad input: they cannot be loaded as
 * row changes.
 */
public final class DebeziumDecoder implements SourceEventDecoder {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DebeziumDecoder.class);

    private final KeyColumns keyColumns;
    /** Whether this instance (one per subtask, its thread only) has said that events carry no transaction block. */
    private transient boolean saidWithoutTransaction;

    /** A decoder that learns key columns only from record keys. */
    public DebeziumDecoder() {
        this(Map.of());
    }

    /**
     * @param primaryKeyColumns key columns per source table {@code db.table} (or {@code schema.table}),
     *     used when a record has no key
     */
    public DebeziumDecoder(Map<String, List<String>> primaryKeyColumns) {
        this.keyColumns = new KeyColumns(primaryKeyColumns);
    }

    @Override
    public SourceEvent decode(SourceRecord record) {
        if (record.getValue() == null) {
            return null;
        }
        String position = record.describePosition();
        ObjectNode root = CdcJson.parseObject(record.getValue(), position, "value");
        JsonNode body = CdcJson.unwrapEnvelope(root);
        if (body == null) {
            return null;
        }
        if (!body.isObject()) {
            throw new BadSourceEventException(position, "the payload is not a JSON object");
        }
        if (body.has("status")) {
            return decodeTransactionEvent(record, body, position);
        }
        if (body.has("op")) {
            return decodeDataEvent(record, root, body, position);
        }
        if (body.has("ddl") || body.has("tableChanges")) {
            return schemaChange(record, body, position);
        }
        if (isHeartbeat(body)) {
            return null;
        }
        throw new BadSourceEventException(position,
                "neither a Debezium data event (no 'op') nor a transaction event (no 'status')"
                        + (body.has("type") && body.has("data") ? "; the value looks like a Maxwell event ('type', "
                        + "'data'): use --format maxwell" : ""));
    }

    /** A Debezium heartbeat value holds only {@code ts_ms} (or nothing). */
    private static boolean isHeartbeat(JsonNode body) {
        return body.size() == 0 || (body.size() == 1 && body.has("ts_ms"));
    }

    private static SourceEvent decodeTransactionEvent(SourceRecord record, JsonNode body, String position) {
        String status = CdcJson.requiredText(body, "status", position);
        String id = CdcJson.requiredText(body, "id", position);
        SourceEvent event;
        if ("BEGIN".equals(status)) {
            event = SourceEvent.at(SourceEventKind.BEGIN, record);
        } else if ("END".equals(status)) {
            event = SourceEvent.at(SourceEventKind.END, record);
            event.setEventCount(CdcJson.requiredCount(body, "event_count", position));
            event.putTableEventCounts(tableCounts(body, position));
        } else {
            throw new BadSourceEventException(position, "unknown transaction status '" + status
                    + "' (expected BEGIN or END)");
        }
        event.setTransactionId(id);
        event.setTransactionKey(TransactionIds.key(id));
        CommitPositionFields.fromDebeziumTransaction(event, id, body, position);
        return event;
    }

    private static Map<String, Long> tableCounts(JsonNode body, String position) {
        JsonNode collections = body.get("data_collections");
        if (collections == null || !collections.isArray()) {
            throw new BadSourceEventException(position, "END without a 'data_collections' array");
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        for (JsonNode entry : collections) {
            String name = CdcJson.requiredText(entry, "data_collection", position);
            counts.merge(name, CdcJson.requiredCount(entry, "event_count", position), Long::sum);
        }
        return counts;
    }

    private SourceEvent decodeDataEvent(SourceRecord record, ObjectNode root, JsonNode body, String position) {
        String op = CdcJson.requiredText(body, "op", position);
        ObjectNode source = CdcJson.requiredObject(body, "source", position);
        String schema = CdcJson.optionalText(source, "schema", position);
        String database = schema != null ? schema : CdcJson.requiredText(source, "db", position);
        String table = CdcJson.requiredText(source, "table", position);
        ObjectNode transaction = CdcJson.optionalObject(body, "transaction", position);

        SourceEvent event = SourceEvent.at(SourceEventKind.ROW, record);
        event.setSourceDatabase(database);
        event.setSourceTable(table);
        CommitPositionFields.fromDebeziumSource(event, source, position);
        switch (op) {
            case "c":
            case "r":
                event.setRow(CdcJson.upsertRow(image(root, body, "after", event, position, true)));
                break;
            case "u":
                decodeUpdate(record, root, body, position, event);
                break;
            case "d":
                event.setDelete(true);
                event.setRow(CdcJson.deleteRow(image(root, body, "before", event, position, false)));
                break;
            default:
                throw new BadSourceEventException(position, "unsupported Debezium op '" + op + "' on table "
                        + event.dataCollection() + " (expected c, u, d or r)");
        }
        if (transaction == null || "r".equals(op)) {
            event.setStandalone(true);
            if (transaction == null && !"r".equals(op) && !saidWithoutTransaction) {
                saidWithoutTransaction = true;
                LOG.warn("data event at {} (table {}) carries no transaction block: each such event is loaded as a "
                        + "transaction of its own, so a source transaction's rows become visible one by one, not "
                        + "atomically. Debezium writes the block with provide.transaction.metadata=true, and the "
                        + "BEGIN/END records go to the transaction topic (docs/sources.md); said once per subtask",
                        position, event.dataCollection());
            }
        } else {
            String id = CdcJson.requiredText(transaction, "id", position);
            event.setTransactionId(id);
            event.setTransactionKey(TransactionIds.key(id));
            CommitPositionFields.fromDebeziumDataId(event, id, position);
            if (transaction.hasNonNull("total_order")) {
                event.setTotalOrder(CdcJson.requiredCount(transaction, "total_order", position));
            }
        }
        return event;
    }

    /** The row image {@code field} with its values converted for loading ({@link DebeziumValues}). */
    private static ObjectNode image(ObjectNode root, JsonNode body, String field, SourceEvent event,
            String position, boolean upsert) {
        return DebeziumValues.toLoadValues(CdcJson.requiredObject(body, field, position),
                CdcJson.payloadFieldSchema(root, field), event.dataCollection(), position, upsert);
    }

    private void decodeUpdate(SourceRecord record, ObjectNode root, JsonNode body, String position,
            SourceEvent event) {
        ObjectNode after = image(root, body, "after", event, position, true);
        ObjectNode before = CdcJson.optionalObject(body, "before", position);
        if (before != null) {
            before = DebeziumValues.toLoadValues(before, CdcJson.payloadFieldSchema(root, "before"),
                    event.dataCollection(), position, false);
        }
        event.setRow(CdcJson.upsertRow(after));
        if (before != null && KeyColumns.keyChanged(keyColumnsOf(record, event, position), before, after)) {
            event.setPreviousKeyDeleteRow(CdcJson.deleteRow(before));
        }
    }

    private List<String> keyColumnsOf(SourceRecord record, SourceEvent event, String position) {
        if (record.getKey() != null) {
            JsonNode key = CdcJson.unwrapEnvelope(CdcJson.parseObject(record.getKey(), position, "key"));
            if (key != null && key.isObject() && key.size() > 0) {
                return CdcJson.fieldNames(key);
            }
        }
        return keyColumns.of(event.dataCollection());
    }

    /**
     * A schema change event (Debezium's schema change topic format): database {@code databaseName} (else
     * {@code source.db}), table the last part of {@code tableChanges[0].id} (e.g. {@code "shop"."orders"}), the
     * statement {@code ddl}; the columns after the change from {@code tableChanges[0].table.columns} ({@code typeName},
     * {@code length}, {@code scale}) and the columns the statement drops ({@code DROP [COLUMN] name} in the DDL text,
     * for names no longer among the columns).
     */
    private static SourceEvent schemaChange(SourceRecord record, JsonNode body, String position) {
        SourceEvent event = SourceEvent.at(SourceEventKind.SCHEMA_CHANGE, record);
        String database = body.path("databaseName").asText("");
        if (database.isEmpty()) {
            database = body.path("source").path("db").asText("?");
        }
        String table = "?";
        JsonNode changes = body.path("tableChanges");
        if (changes.isArray() && !changes.isEmpty()) {
            String id = changes.get(0).path("id").asText("");
            if (!id.isEmpty()) {
                String[] parts = id.split("\\.");
                table = parts[parts.length - 1].replace("\"", "");
            }
        }
        event.setSourceDatabase(database);
        event.setSourceTable(table);
        String ddl = body.path("ddl").asText("(no ddl text)");
        event.setRow(SourceEvent.ddlExcerpt(ddl));
        JsonNode columns = changes.isArray() && !changes.isEmpty()
                ? changes.get(0).path("table").path("columns") : null;
        if (columns != null && columns.isArray() && !columns.isEmpty()) {
            StringBuilder list = new StringBuilder();
            Set<String> names = new HashSet<>();
            for (JsonNode column : columns) {
                String name = column.path("name").asText("");
                if (name.isEmpty()) {
                    continue;
                }
                names.add(name.toLowerCase(Locale.ROOT));
                String type = column.path("typeName").asText("").toLowerCase(Locale.ROOT);
                if (column.path("length").isIntegralNumber()) {
                    type += "(" + column.path("length").asInt()
                            + (column.path("scale").isIntegralNumber() ? "," + column.path("scale").asInt() : "") + ")";
                }
                list.append(list.length() == 0 ? "" : "\n").append(name).append('\t').append(type);
            }
            event.setSchemaColumns(list.toString());
            StringBuilder dropped = new StringBuilder();
            Matcher drop = DROP_COLUMN.matcher(ddl);
            while (drop.find()) {
                String name = drop.group(1);
                if (!NOT_A_COLUMN.contains(name.toUpperCase(Locale.ROOT))
                        && !names.contains(name.toLowerCase(Locale.ROOT))) {
                    dropped.append(dropped.length() == 0 ? "" : "\n").append(name);
                }
            }
            event.setDroppedColumns(dropped.length() == 0 ? null : dropped.toString());
        }
        return event;
    }

    /** {@code DROP [COLUMN] [IF EXISTS] name} inside an {@code ALTER TABLE} statement (MySQL and PostgreSQL syntax). */
    private static final Pattern DROP_COLUMN = Pattern.compile(
            "(?i)\\bDROP\\s+(?:COLUMN\\s+)?(?:IF\\s+EXISTS\\s+)?[`\"]?([A-Za-z0-9_$]+)[`\"]?");
    /** Words after {@code DROP} that name something other than a column. */
    private static final Set<String> NOT_A_COLUMN = Set.of("PRIMARY", "INDEX", "KEY", "FOREIGN", "CONSTRAINT",
            "TABLE", "CHECK", "DEFAULT", "PARTITION", "NOT", "EXPRESSION", "IDENTITY");
}
