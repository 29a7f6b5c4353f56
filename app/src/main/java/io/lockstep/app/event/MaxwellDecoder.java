package io.lockstep.app.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Decodes Maxwell's daemon JSON rows (docs/input-formats.md#maxwell): {@code database}, {@code table}, {@code type},
 * {@code xid} on every row of a transaction, {@code commit: true} on its last row, {@code data} (the row after the
 * change; for a delete the row before it) and {@code old} (previous values of the changed columns of an update).
 *
 * <p>Mapping: {@code insert}, {@code update} upsert {@code data}; {@code delete} deletes {@code data}
 * ({@code "__op":1}); {@code bootstrap-insert} upserts {@code data} as its own transaction
 * ({@link SourceEvent#isStandalone()}); {@code bootstrap-start} and {@code bootstrap-complete} decode to nothing;
 * DDL types ({@code table-*}, {@code database-*}) to a {@link SourceEventKind#SCHEMA_CHANGE}, whose columns come from
 * {@code def.columns} and whose dropped columns are those of {@code old.columns} missing there. An update whose {@code old} holds a key
 * column also carries the delete of the old key. Key columns come from the row's
 * {@code primary_key_columns}, else from the Maxwell record key ({@code "pk.<column>"} fields), else
 * from the configured key columns of the table.
 *
 * <p>Source commit position ({@link CommitPositionFields}): {@code position} ({@code output_binlog_position=true}),
 * {@code gtid} ({@code output_gtid_position=true}), {@code server_id} ({@code output_server_id=true}) and {@code ts}
 * of every transactional row; the commit row's values are the transaction's.
 *
 * <p>A row with neither {@code xid} nor {@code commit} has no transaction boundary (Maxwell's
 * {@code output_commit_info=false}) and is rejected as bad input.
 */
public final class MaxwellDecoder implements SourceEventDecoder {

    private static final long serialVersionUID = 1L;
    private static final String KEY_PREFIX = "pk.";

    private final KeyColumns keyColumns;

    /** A decoder that learns key columns from the rows and record keys only. */
    public MaxwellDecoder() {
        this(Map.of());
    }

    /** @param primaryKeyColumns key columns per source table {@code db.table}, used as a last resort */
    public MaxwellDecoder(Map<String, List<String>> primaryKeyColumns) {
        this.keyColumns = new KeyColumns(primaryKeyColumns);
    }

    @Override
    public SourceEvent decode(SourceRecord record) {
        if (record.getValue() == null) {
            return null;
        }
        String position = record.describePosition();
        ObjectNode root = CdcJson.parseObject(record.getValue(), position, "value");
        if (!root.hasNonNull("type") && (root.has("payload") || root.has("op") || root.has("status"))) {
            throw new BadSourceEventException(position, "missing field 'type' of a Maxwell event; the value looks "
                    + "like a Debezium event ('payload', 'op' or 'status'): use --format debezium");
        }
        String type = CdcJson.requiredText(root, "type", position);
        if (type.startsWith("table-") || type.startsWith("database-")) {
            SourceEvent change = SourceEvent.at(SourceEventKind.SCHEMA_CHANGE, record);
            change.setSourceDatabase(root.path("database").asText("?"));
            change.setSourceTable(root.path("table").asText("?"));
            change.setRow(SourceEvent.ddlExcerpt(root.path("sql").asText(type)));
            JsonNode after = root.path("def").path("columns");
            if (after.isArray() && !after.isEmpty()) {
                StringBuilder list = new StringBuilder();
                Set<String> names = new HashSet<>();
                for (JsonNode column : after) {
                    String name = column.path("name").asText("");
                    if (!name.isEmpty()) {
                        names.add(name.toLowerCase(Locale.ROOT));
                        list.append(list.length() == 0 ? "" : "\n").append(name).append('\t').append(maxwellType(column));
                    }
                }
                change.setSchemaColumns(list.toString());
                StringBuilder dropped = new StringBuilder();
                for (JsonNode column : root.path("old").path("columns")) {
                    String name = column.path("name").asText("");
                    if (!name.isEmpty() && !names.contains(name.toLowerCase(Locale.ROOT))) {
                        dropped.append(dropped.length() == 0 ? "" : "\n").append(name);
                    }
                }
                change.setDroppedColumns(dropped.length() == 0 ? null : dropped.toString());
            }
            return change;
        }
        if ("bootstrap-start".equals(type) || "bootstrap-complete".equals(type)) {
            return null;
        }
        SourceEvent event = SourceEvent.at(SourceEventKind.ROW, record);
        event.setSourceDatabase(CdcJson.requiredText(root, "database", position));
        event.setSourceTable(CdcJson.requiredText(root, "table", position));
        ObjectNode data = CdcJson.requiredObject(root, "data", position);
        switch (type) {
            case "insert":
            case "bootstrap-insert":
                event.setRow(CdcJson.upsertRow(data));
                break;
            case "update":
                event.setRow(CdcJson.upsertRow(data));
                ObjectNode old = CdcJson.optionalObject(root, "old", position);
                if (old != null) {
                    decodeKeyChange(record, root, data, old, event, position);
                }
                break;
            case "delete":
                event.setDelete(true);
                event.setRow(CdcJson.deleteRow(data));
                break;
            default:
                throw new BadSourceEventException(position, "unsupported Maxwell type '" + type + "' on table "
                        + event.dataCollection());
        }
        if ("bootstrap-insert".equals(type)) {
            event.setStandalone(true);
            return event;
        }
        String xid = CdcJson.optionalText(root, "xid", position);
        JsonNode commit = root.get("commit");
        if (commit != null && !commit.isNull() && !commit.isBoolean()) {
            throw new BadSourceEventException(position, "field 'commit' is not a boolean");
        }
        boolean isCommit = commit != null && commit.asBoolean(false);
        if (xid == null && commit == null) {
            throw new BadSourceEventException(position, "Maxwell row has neither 'xid' nor 'commit'; "
                    + "transactions cannot be found (set output_commit_info=true)");
        }
        event.setTransactionId(xid);
        event.setTransactionKey(xid);
        event.setCommit(isCommit);
        CommitPositionFields.fromMaxwell(event, root, position);
        return event;
    }

    private void decodeKeyChange(SourceRecord record, ObjectNode root, ObjectNode data, ObjectNode old,
            SourceEvent event, String position) {
        List<String> key = keyColumnsOf(record, root, event, position);
        boolean changed = false;
        for (String column : key) {
            changed |= old.has(column);
        }
        if (changed) {
            ObjectNode before = data.deepCopy();
            before.setAll(old);
            event.setPreviousKeyDeleteRow(CdcJson.deleteRow(before));
        }
    }

    private List<String> keyColumnsOf(SourceRecord record, ObjectNode root, SourceEvent event, String position) {
        JsonNode declared = root.get("primary_key_columns");
        List<String> columns = new ArrayList<>();
        if (declared != null && declared.isArray()) {
            declared.forEach(c -> columns.add(c.asText()));
            return columns;
        }
        if (record.getKey() != null) {
            for (String field : CdcJson.fieldNames(CdcJson.parseObject(record.getKey(), position, "key"))) {
                if (field.startsWith(KEY_PREFIX)) {
                    columns.add(field.substring(KEY_PREFIX.length()));
                }
            }
            if (!columns.isEmpty()) {
                return columns;
            }
        }
        return keyColumns.of(event.dataCollection());
    }

    /**
     * A Maxwell column definition's type as MySQL spells it: {@code type}, with {@code (precision,scale)} for
     * decimals, {@code (column-length)} for character columns, and {@code unsigned} when {@code signed} is false.
     */
    private static String maxwellType(JsonNode column) {
        String type = column.path("type").asText("").toLowerCase(Locale.ROOT);
        if (column.path("precision").isIntegralNumber()) {
            type += "(" + column.path("precision").asInt() + "," + column.path("scale").asInt(0) + ")";
        } else if (column.path("column-length").isIntegralNumber()) {
            type += "(" + column.path("column-length").asInt() + ")";
        }
        if (column.has("signed") && !column.path("signed").asBoolean(true)) {
            type += " unsigned";
        }
        return type;
    }
}
