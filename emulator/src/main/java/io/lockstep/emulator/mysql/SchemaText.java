package io.lockstep.emulator.mysql;

import io.lockstep.emulator.catalog.ColumnSchema;
import io.lockstep.emulator.catalog.ColumnType;
import io.lockstep.emulator.catalog.TableSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The text forms of a table's schema on the query port: {@code SHOW CREATE TABLE} (a statement the emulator's own DDL
 * parser reads back) and the rows of {@code DESC}, with StarRocks' type spelling ({@code bigint(20)},
 * {@code varchar(32)}, STRING as {@code varchar(65533)}). The catalog keeps no distribution, bucket count or
 * properties, so {@code SHOW CREATE TABLE} names the key columns as the hash columns and no properties.
 */
final class SchemaText {
    private SchemaText() {
    }

    /** StarRocks' spelling of a column type, as DESC and SHOW CREATE TABLE print it. */
    static String type(ColumnType type) {
        return switch (type.kind()) {
            case BOOLEAN -> "boolean";
            case TINYINT -> "tinyint(4)";
            case SMALLINT -> "smallint(6)";
            case INT -> "int(11)";
            case BIGINT -> "bigint(20)";
            case LARGEINT -> "largeint(40)";
            case FLOAT -> "float";
            case DOUBLE -> "double";
            case DECIMAL -> "decimal(" + type.precision() + "," + type.scale() + ")";
            case CHAR -> "char(" + type.length() + ")";
            case VARCHAR, STRING -> "varchar(" + type.length() + ")";
            case DATE -> "date";
            case DATETIME -> "datetime";
            case JSON -> "json";
        };
    }

    static String createTable(TableSchema table) {
        StringBuilder sql = new StringBuilder("CREATE TABLE `").append(table.name()).append("` (\n");
        List<String> lines = new ArrayList<>();
        for (ColumnSchema column : table.columns()) {
            StringBuilder line = new StringBuilder("  `").append(column.name()).append("` ").append(type(column.type()))
                    .append(column.nullable() ? " NULL" : " NOT NULL");
            if (column.defaultValue() != null) {
                line.append(" DEFAULT \"").append(column.defaultValue().replace("\"", "\\\"")).append('"');
            }
            lines.add(line.append(" COMMENT \"\"").toString());
        }
        sql.append(String.join(",\n", lines)).append("\n) ENGINE=OLAP\n");
        String keys = table.keyColumns().stream().map(k -> "`" + k + "`").collect(Collectors.joining(", "));
        sql.append(switch (table.keysType()) {
            case PRIMARY_KEYS -> "PRIMARY KEY";
            case UNIQUE_KEYS -> "UNIQUE KEY";
            case DUPLICATE_KEYS -> "DUPLICATE KEY";
        }).append('(').append(keys).append(")\n");
        return sql.append("DISTRIBUTED BY HASH(").append(keys).append(");").toString();
    }

    /** DESC rows: Field, Type, Null, Key, Default, Extra. */
    static List<List<Object>> describe(TableSchema table) {
        List<List<Object>> rows = new ArrayList<>();
        for (ColumnSchema column : table.columns()) {
            boolean key = table.keyColumns().stream().anyMatch(k -> k.equalsIgnoreCase(column.name()));
            rows.add(Arrays.asList(column.name(), type(column.type()), column.nullable() ? "YES" : "NO",
                    key ? "true" : "false", column.defaultValue(), ""));
        }
        return rows;
    }
}
