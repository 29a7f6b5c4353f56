package io.lockstep.emulator.doris;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.catalog.ColumnSchema;
import io.lockstep.emulator.catalog.ColumnType;
import io.lockstep.emulator.catalog.KeysType;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.http.JsonText;
import io.lockstep.emulator.http.Reply;
import java.util.Optional;

/**
 * {@code GET /api/{db}/{table}/_schema} on the FE, as Doris' FE {@code TableSchemaAction}
 * (fe/fe-core/src/main/java/org/apache/doris/httpv2/rest/TableSchemaAction.java) answers it for an OLAP table; the
 * Doris Flink connector reads it ({@code RestService.getSchema}) to decide on 2PC and deletes
 * (docs/protocol.md#doris-table-schema-and-the-transaction-view).
 *
 * <p>Reply: HTTP 200 {@code {"msg":"success","code":0,"data":{"properties":[..],"keysType":K,"tableType":"Doris",
 * "status":200},"count":0}}. Each property is {@code {"type","name","comment","aggregation_type"}}, with
 * {@code "precision"} and {@code "scale"} (as text) for a decimal. {@code keysType} is Doris' {@code KeysType} name:
 * {@code UNIQUE_KEYS}, {@code DUP_KEYS} (a DUPLICATE KEY table), {@code PRIMARY_KEYS} (a StarRocks PRIMARY KEY
 * table). {@code type} is Doris' {@code PrimitiveType} name in Doris 2.x's default types: DATE → {@code DATEV2},
 * DATETIME → {@code DATETIMEV2}, DECIMAL(p, s) → {@code DECIMAL32} (p ≤ 9), {@code DECIMAL64} (p ≤ 18) or
 * {@code DECIMAL128}, JSON → {@code JSON}, others by their name. {@code aggregation_type}
 * ({@code AggregateType.toSql}) is "" for a key column, {@code REPLACE} for a value column of a UNIQUE KEY table and
 * {@code NONE} for one of a DUPLICATE KEY table. {@code comment} is "" (the catalog keeps no comments). An unknown
 * database or table answers HTTP 200 code 1 {@code "Error"} with
 * {@code errCode = 2, detailMessage = Unknown database 'd'} (or {@code table 't'}), as
 * {@code ResponseEntityBuilder.okWithCommonError} does. Thread-safe.
 */
final class DorisTableSchema {
    private final Catalog catalog;

    DorisTableSchema(Catalog catalog) {
        this.catalog = catalog;
    }

    /** The reply for {@code db.table}. */
    Reply reply(String db, String table) {
        if (catalog.database(db).isEmpty()) {
            return DorisRestResult.error("Error", 1, "errCode = 2, detailMessage = Unknown database '" + db + "'");
        }
        Optional<TableSchema> found = catalog.table(db, table);
        if (found.isEmpty()) {
            return DorisRestResult.error("Error", 1, "errCode = 2, detailMessage = Unknown table '" + table + "'");
        }
        TableSchema schema = found.get();
        ObjectNode data = JsonText.object();
        ArrayNode properties = data.putArray("properties");
        for (ColumnSchema column : schema.columns()) {
            ObjectNode p = properties.addObject();
            ColumnType type = column.type();
            if (type.kind() == ColumnType.Kind.DECIMAL) {
                p.put("precision", String.valueOf(type.precision()));
                p.put("scale", String.valueOf(type.scale()));
            }
            p.put("type", typeName(type));
            p.put("name", column.name());
            p.put("comment", "");
            p.put("aggregation_type", aggregationType(schema, column));
        }
        data.put("keysType", keysType(schema.keysType()));
        data.put("tableType", "Doris");
        data.put("status", 200);
        return DorisRestResult.ok(data);
    }

    /** Doris' {@code KeysType} name. */
    static String keysType(KeysType keysType) {
        return switch (keysType) {
            case UNIQUE_KEYS -> "UNIQUE_KEYS";
            case DUPLICATE_KEYS -> "DUP_KEYS";
            case PRIMARY_KEYS -> "PRIMARY_KEYS";
        };
    }

    /** Doris' {@code PrimitiveType} name of a column type (Doris 2.x defaults: V2 dates, V3 decimals). */
    static String typeName(ColumnType type) {
        return switch (type.kind()) {
            case DATE -> "DATEV2";
            case DATETIME -> "DATETIMEV2";
            case DECIMAL -> type.precision() <= 9 ? "DECIMAL32" : type.precision() <= 18 ? "DECIMAL64" : "DECIMAL128";
            default -> type.kind().name();
        };
    }

    private static String aggregationType(TableSchema table, ColumnSchema column) {
        boolean key = table.keyColumns().stream().anyMatch(k -> k.equalsIgnoreCase(column.name()));
        if (key) {
            return "";
        }
        return table.keysType() == KeysType.DUPLICATE_KEYS ? "NONE" : "REPLACE";
    }
}
