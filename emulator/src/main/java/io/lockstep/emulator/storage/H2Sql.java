package io.lockstep.emulator.storage;

import io.lockstep.emulator.catalog.ColumnSchema;
import io.lockstep.emulator.catalog.ColumnType;
import io.lockstep.emulator.catalog.TableSchema;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The SQL text H2 runs for the emulator's tables: type mapping, CREATE TABLE, MERGE/INSERT/DELETE statements.
 *
 * <p>Names: the database runs with {@code DATABASE_TO_LOWER=TRUE}, so a reader's unquoted names are read in lower
 * case. Schema (database) and table names are created exactly as declared, because StarRocks matches them
 * case-sensitively: {@code shop.orders} needs no quotes, a mixed-case table must be quoted ({@code "Orders"}).
 * Column names are created in lower case, because StarRocks matches them case-insensitively; query results label
 * them in lower case. Every identifier is quoted in the statements made here, so reserved words work as names.
 *
 * <p>Type mapping (StarRocks → H2): BOOLEAN → BOOLEAN; TINYINT, SMALLINT, INT, BIGINT → same; LARGEINT →
 * NUMERIC(39, 0); FLOAT → REAL; DOUBLE → DOUBLE PRECISION; DECIMAL(p, s) → DECIMAL(p, s); CHAR(n) → VARCHAR(n)
 * (StarRocks does not pad CHAR values on read, H2's CHAR would); VARCHAR(n), STRING → VARCHAR(n) (lengths were
 * checked in UTF-8 bytes at load, as StarRocks counts them; H2 counts characters, which never exceed the bytes),
 * or CHARACTER LARGE OBJECT above H2's 1,000,000-character VARCHAR limit (read back as String);
 * DATE → DATE; DATETIME → TIMESTAMP(6) (StarRocks keeps microseconds); JSON → VARCHAR holding the JSON text
 * (readers compare and print it as text; H2 limits it to 1,000,000 characters, StarRocks to 16 MB).
 */
final class H2Sql {
    /** H2's longest VARCHAR, in characters; longer StarRocks VARCHARs (up to 1048576 bytes) become CLOBs. */
    static final int H2_MAX_VARCHAR = 1_000_000;
    private H2Sql() {
    }

    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    static String tableName(TableSchema table) {
        return quote(table.database()) + "." + quote(table.name());
    }

    static String h2Type(ColumnType type) {
        return switch (type.kind()) {
            case BOOLEAN -> "BOOLEAN";
            case TINYINT -> "TINYINT";
            case SMALLINT -> "SMALLINT";
            case INT -> "INTEGER";
            case BIGINT -> "BIGINT";
            case LARGEINT -> "NUMERIC(39, 0)";
            case FLOAT -> "REAL";
            case DOUBLE -> "DOUBLE PRECISION";
            case DECIMAL -> "DECIMAL(" + type.precision() + ", " + type.scale() + ")";
            case CHAR, VARCHAR, STRING -> type.length() <= H2_MAX_VARCHAR
                    ? "VARCHAR(" + type.length() + ")" : "CHARACTER LARGE OBJECT";
            case DATE -> "DATE";
            case DATETIME -> "TIMESTAMP(6)";
            case JSON -> "VARCHAR";
        };
    }

    static String createTable(TableSchema table) {
        StringBuilder sql = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(tableName(table)).append(" (");
        for (ColumnSchema column : table.columns()) {
            sql.append(quote(columnName(column.name()))).append(' ').append(h2Type(column.type()));
            if (!column.nullable()) {
                sql.append(" NOT NULL");
            }
            sql.append(", ");
        }
        if (table.keysType().upsertsByKey()) {
            sql.append("PRIMARY KEY (").append(columnList(keyNames(table))).append(')');
        } else {
            sql.setLength(sql.length() - 2);
        }
        return sql.append(')').toString();
    }

    /** {@code ALTER TABLE ... ADD COLUMN} for a column appended to the table, with its default for existing rows. */
    static String addColumn(TableSchema table, ColumnSchema column) {
        StringBuilder sql = new StringBuilder("ALTER TABLE ").append(tableName(table)).append(" ADD COLUMN ")
                .append(quote(columnName(column.name()))).append(' ').append(h2Type(column.type()));
        if (column.defaultValue() != null) {
            sql.append(" DEFAULT '").append(column.defaultValue().replace("'", "''")).append('\'');
        }
        if (!column.nullable()) {
            sql.append(" NOT NULL");
        }
        return sql.toString();
    }

    static String merge(TableSchema table) {
        return "MERGE INTO " + tableName(table) + " (" + allColumns(table) + ") KEY (" + columnList(keyNames(table))
                + ") VALUES (" + placeholders(table.columns().size()) + ")";
    }

    static String insert(TableSchema table) {
        return "INSERT INTO " + tableName(table) + " (" + allColumns(table) + ") VALUES ("
                + placeholders(table.columns().size()) + ")";
    }

    /**
     * {@code UPDATE ... SET} the non-key columns marked in {@code provided} {@code WHERE} the key: a partial update of
     * an existing row. Parameters: the set columns in table order, then the key columns.
     */
    static String updateColumns(TableSchema table, boolean[] provided) {
        int keyCount = table.keyColumns().size();
        List<String> set = new java.util.ArrayList<>();
        for (int c = keyCount; c < table.columns().size(); c++) {
            if (provided[c]) {
                set.add(quote(columnName(table.columns().get(c).name())) + " = ?");
            }
        }
        if (set.isEmpty()) { // only keys: the row is touched, nothing changes
            String key = quote(keyNames(table).get(0));
            set.add(key + " = " + key);
        }
        return "UPDATE " + tableName(table) + " SET " + String.join(", ", set) + " WHERE " + keyNames(table).stream()
                .map(k -> quote(k) + " = ?").collect(Collectors.joining(" AND "));
    }

    static String deleteByKey(TableSchema table) {
        return "DELETE FROM " + tableName(table) + " WHERE " + keyNames(table).stream()
                .map(k -> quote(k) + " = ?").collect(Collectors.joining(" AND "));
    }

    private static String allColumns(TableSchema table) {
        return table.columns().stream().map(c -> quote(columnName(c.name()))).collect(Collectors.joining(", "));
    }

    /** The H2 name of a column: lower case (see the class comment). */
    static String columnName(String column) {
        return column.toLowerCase(java.util.Locale.ROOT);
    }

    private static List<String> keyNames(TableSchema table) {
        return table.keyColumns().stream().map(H2Sql::columnName).toList();
    }

    private static String columnList(List<String> names) {
        return names.stream().map(H2Sql::quote).collect(Collectors.joining(", "));
    }

    private static String placeholders(int count) {
        return String.join(", ", java.util.Collections.nCopies(count, "?"));
    }
}
