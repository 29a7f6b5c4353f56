package io.lockstep.app.create;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MySQL's and MariaDB's catalog (dev.mysql.com/doc/refman/8.4/en/information-schema-columns-table.html,
 * mariadb.com/kb/en/information-schema-columns-table/):
 * <ul>
 *   <li>tables: {@code information_schema.TABLES} of type {@code BASE TABLE} outside the system databases;
 *   <li>columns: {@code information_schema.COLUMNS} in {@code ORDINAL_POSITION} order. {@link SourceColumn#sourceType()}
 *       is {@code DATA_TYPE} lower-cased, with {@code " unsigned"} appended when {@code COLUMN_TYPE} says so
 *       ({@code int unsigned}), and {@code json} for a MariaDB {@code JSON} column (MariaDB stores it as
 *       {@code longtext} with the check {@code json_valid(column)}); {@link SourceColumn#length()} is the display
 *       width of an integer type when {@code COLUMN_TYPE} shows one ({@code tinyint(1)}: 1, as Debezium's
 *       {@code column.propagate.source.type} reports it), {@code CHARACTER_MAXIMUM_LENGTH} of {@code char},
 *       {@code varchar}, {@code binary}, {@code varbinary}, {@code enum} (its longest label) and {@code set} (all
 *       labels joined), {@code NUMERIC_PRECISION} of {@code decimal} and {@code bit} (with {@code NUMERIC_SCALE} as
 *       the decimal's scale), {@code DATETIME_PRECISION} of {@code time}, {@code datetime} and {@code timestamp}; the
 *       text and blob kinds carry no length (their type names say it). Parameters: {@code column_type} (the full
 *       {@code COLUMN_TYPE}), for {@code enum} and {@code set} {@code allowed} (the labels in order,
 *       comma-separated, as Debezium's {@code io.debezium.data.Enum} / {@code EnumSet}), and {@code generated}
 *       ({@code VIRTUAL} or {@code STORED}, from {@code EXTRA}: MySQL's {@code VIRTUAL GENERATED} /
 *       {@code STORED GENERATED}, MariaDB's {@code VIRTUAL GENERATED} / {@code STORED GENERATED} or, before 10.2.5,
 *       {@code VIRTUAL} / {@code PERSISTENT}) for a generated column;
 *   <li>primary key: {@code information_schema.KEY_COLUMN_USAGE} of constraint {@code PRIMARY} in key order.
 * </ul>
 * MySQL shows a user only the tables and columns it holds some privilege on: a table without one is absent.
 */
final class MySqlCatalogDialect implements SourceCatalogDialect {

    private static final String SYSTEM_DATABASES =
            " NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys')";

    private static final String TABLES = "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES"
            + " WHERE TABLE_TYPE = 'BASE TABLE' AND TABLE_SCHEMA" + SYSTEM_DATABASES;

    private static final String COLUMNS = "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, DATA_TYPE, COLUMN_TYPE,"
            + " CHARACTER_MAXIMUM_LENGTH, NUMERIC_PRECISION, NUMERIC_SCALE, DATETIME_PRECISION, IS_NULLABLE, EXTRA"
            + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA" + SYSTEM_DATABASES;

    private static final String PRIMARY_KEYS = "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME"
            + " FROM information_schema.KEY_COLUMN_USAGE WHERE CONSTRAINT_NAME = 'PRIMARY' AND TABLE_SCHEMA"
            + SYSTEM_DATABASES;

    /** MariaDB's JSON alias: a check {@code json_valid(`column`)} (MariaDB 10.4.3+ has CHECK_CONSTRAINTS.TABLE_NAME). */
    private static final String MARIADB_JSON_CHECKS = "SELECT CONSTRAINT_SCHEMA, TABLE_NAME, CHECK_CLAUSE"
            + " FROM information_schema.CHECK_CONSTRAINTS WHERE CHECK_CLAUSE LIKE 'json_valid(%'";
    private static final Pattern JSON_VALID = Pattern.compile("json_valid\\(`((?:[^`]|``)+)`\\)");

    private static final Pattern DISPLAY_WIDTH = Pattern.compile("^[a-z]*int\\((\\d+)\\)");
    private static final Set<String> INTEGER_TYPES = Set.of("tinyint", "smallint", "mediumint", "int", "bigint");

    /** Connector/J's {@code connectTimeout} and {@code socketTimeout} are in milliseconds (its configuration docs). */
    @Override
    public Map<String, String> connectionDefaults() {
        return Map.of("connectTimeout", "10000", "socketTimeout", "60000");
    }

    @Override
    public List<SourceTable> read(Connection connection, String database, String table, Predicate<String> include)
            throws SQLException {
        CatalogQuery query = new CatalogQuery(connection, statement -> bind(statement, database, table));
        List<TableName> tables = query.tables(TABLES + filter(database, table) + " ORDER BY TABLE_SCHEMA, TABLE_NAME")
                .stream().filter(name -> include.test(name.qualifiedName())).toList();
        if (tables.isEmpty()) {
            return List.of();
        }
        Set<String> jsonColumns = mariaDbJsonColumns(connection);
        Map<TableName, List<SourceColumn>> columns = query.byTable(COLUMNS + filter(database, table)
                + " ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION", (row, name) -> column(row, name, jsonColumns));
        Map<TableName, List<String>> keys = query.byTable(PRIMARY_KEYS + filter(database, table)
                + " ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION", (row, name) -> row.getString(3));
        return CatalogQuery.described(tables, columns, keys, name -> "the source table " + name.qualifiedName()
                + " is listed but information_schema.COLUMNS shows none of its columns: grant the user SELECT on it");
    }

    private static SourceColumn column(ResultSet row, TableName table, Set<String> jsonColumns) throws SQLException {
        String name = row.getString("COLUMN_NAME");
        String dataType = row.getString("DATA_TYPE").toLowerCase(Locale.ROOT);
        String columnType = row.getString("COLUMN_TYPE");
        String lowerColumnType = columnType.toLowerCase(Locale.ROOT);
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("column_type", columnType);
        String sourceType = dataType;
        Integer length = null;
        Integer scale = null;
        if (INTEGER_TYPES.contains(dataType)) {
            Matcher width = DISPLAY_WIDTH.matcher(lowerColumnType);
            length = width.find() ? Integer.valueOf(width.group(1)) : null;
        } else if ("decimal".equals(dataType)) {
            length = integer(row, "NUMERIC_PRECISION");
            scale = integer(row, "NUMERIC_SCALE");
        } else if ("bit".equals(dataType)) {
            length = integer(row, "NUMERIC_PRECISION");
        } else if (Set.of("char", "varchar", "binary", "varbinary", "enum", "set").contains(dataType)) {
            length = integer(row, "CHARACTER_MAXIMUM_LENGTH");
        } else if (Set.of("time", "datetime", "timestamp").contains(dataType)) {
            length = integer(row, "DATETIME_PRECISION");
        } else if ("longtext".equals(dataType)
                && jsonColumns.contains(table.qualifiedName() + "." + name)) {
            sourceType = "json";
        }
        if (lowerColumnType.contains(" unsigned")) {
            sourceType = sourceType + " unsigned";
        }
        if ("enum".equals(dataType) || "set".equals(dataType)) {
            parameters.put("allowed", String.join(",", labels(columnType)));
        }
        String extra = String.valueOf(row.getString("EXTRA")).toUpperCase(Locale.ROOT);
        if (extra.contains("VIRTUAL GENERATED") || extra.equals("VIRTUAL")) {
            parameters.put("generated", "VIRTUAL");
        } else if (extra.contains("STORED GENERATED") || extra.equals("PERSISTENT") || extra.equals("STORED")) {
            parameters.put("generated", "STORED");
        }
        return new SourceColumn(name, sourceType, length, scale, "YES".equals(row.getString("IS_NULLABLE")),
                null, null, parameters);
    }

    /** @return the labels of {@code enum('a','b''c')} / {@code set(...)}, quotes undone */
    static List<String> labels(String columnType) {
        List<String> labels = new ArrayList<>();
        int open = columnType.indexOf('(');
        StringBuilder label = null;
        for (int i = open + 1; open >= 0 && i < columnType.length(); i++) {
            char c = columnType.charAt(i);
            if (label == null) {
                if (c == '\'') {
                    label = new StringBuilder();
                }
            } else if (c == '\'' && i + 1 < columnType.length() && columnType.charAt(i + 1) == '\'') {
                label.append('\'');
                i++;
            } else if (c == '\\' && i + 1 < columnType.length()) {
                label.append(columnType.charAt(++i));
            } else if (c == '\'') {
                labels.add(label.toString());
                label = null;
            } else {
                label.append(c);
            }
        }
        return labels;
    }

    /** @return {@code db.table.column} of MariaDB JSON columns; empty on MySQL (JSON is its own DATA_TYPE there) */
    private static Set<String> mariaDbJsonColumns(Connection connection) throws SQLException {
        Set<String> columns = new HashSet<>();
        if (!connection.getMetaData().getDatabaseProductVersion().toLowerCase(Locale.ROOT).contains("mariadb")) {
            return columns;
        }
        try (PreparedStatement statement = connection.prepareStatement(MARIADB_JSON_CHECKS);
                ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                Matcher check = JSON_VALID.matcher(rows.getString(3));
                if (check.matches()) {
                    columns.add(rows.getString(1) + "." + rows.getString(2) + "." + check.group(1).replace("``", "`"));
                }
            }
        }
        return columns;
    }

    private static Integer integer(ResultSet row, String column) throws SQLException {
        long value = row.getLong(column);
        return row.wasNull() ? null : (int) Math.min(value, Integer.MAX_VALUE);
    }

    private static String filter(String database, String table) {
        return (database == null ? "" : " AND TABLE_SCHEMA = ?") + (table == null ? "" : " AND TABLE_NAME = ?");
    }

    private static void bind(PreparedStatement statement, String database, String table) throws SQLException {
        int index = 1;
        if (database != null) {
            statement.setString(index++, database);
        }
        if (table != null) {
            statement.setString(index, table);
        }
    }
}
