package io.lockstep.app.create;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * PostgreSQL's catalog (www.postgresql.org/docs/current/infoschema-columns.html, catalog-pg-index.html,
 * catalog-pg-enum.html):
 * <ul>
 *   <li>tables: {@code pg_class} of kind {@code r} (table) or {@code p} (partitioned table) outside the system schemas;
 *   <li>columns: {@code information_schema.columns} in {@code ordinal_position} order. {@link SourceColumn#sourceType()}
 *       is {@code udt_name} ({@code int4}, {@code varchar}, {@code bpchar}, {@code numeric}, {@code timestamptz},
 *       {@code _int4} for an array of {@code int4}, ...), and {@code enum} for a user-defined enum type;
 *       {@link SourceColumn#length()} is {@code character_maximum_length} of character and bit types,
 *       {@code numeric_precision} of {@code numeric} (with {@code numeric_scale} as scale; both {@code null} for a
 *       {@code numeric} without precision), {@code datetime_precision} of time, timestamp and interval types, and the
 *       longest label (in characters) of an enum; parameters: {@code data_type} (e.g. {@code ARRAY},
 *       {@code USER-DEFINED}, {@code timestamp with time zone}), for an enum {@code udt_name} and {@code allowed}
 *       (its labels in sort order, comma-separated, as Debezium's {@code io.debezium.data.Enum}), {@code domain} for
 *       a column of a domain type (whose {@code udt_name} is the domain's base type), and
 *       {@code generated} = {@code ALWAYS} for a generated column (logical replication before PostgreSQL 18 does not
 *       publish its values, so Debezium's events lack it);
 *   <li>primary key: {@code pg_index.indisprimary} in key order ({@code information_schema.table_constraints} would
 *       hide it from a user with only SELECT, Debezium's usual grant).
 * </ul>
 * A table the user sees in {@code pg_class} but whose columns {@code information_schema} hides (no privilege on it) is
 * refused naming the table, never described as empty.
 */
final class PostgresCatalogDialect implements SourceCatalogDialect {

    private static final String SYSTEM_SCHEMAS = " NOT IN ('pg_catalog', 'information_schema')"
            + " AND %1$s NOT LIKE 'pg\\_toast%%' AND %1$s NOT LIKE 'pg\\_temp\\_%%'";

    private static final String TABLES = "SELECT n.nspname, c.relname FROM pg_catalog.pg_class c"
            + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p')"
            + " AND n.nspname" + String.format(SYSTEM_SCHEMAS, "n.nspname");

    private static final String COLUMNS = "SELECT table_schema, table_name, column_name, udt_schema, udt_name, domain_name,"
            + " data_type, character_maximum_length, numeric_precision, numeric_scale, datetime_precision, is_nullable,"
            + " is_generated"
            + " FROM information_schema.columns WHERE table_schema" + String.format(SYSTEM_SCHEMAS, "table_schema");

    private static final String PRIMARY_KEYS = "SELECT n.nspname, c.relname, a.attname FROM pg_catalog.pg_index i"
            + " JOIN pg_catalog.pg_class c ON c.oid = i.indrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
            + " CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)"
            + " JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum"
            + " WHERE i.indisprimary AND n.nspname" + String.format(SYSTEM_SCHEMAS, "n.nspname");

    private static final String ENUM_LABELS = "SELECT n.nspname, t.typname, e.enumlabel FROM pg_catalog.pg_enum e"
            + " JOIN pg_catalog.pg_type t ON t.oid = e.enumtypid JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace"
            + " ORDER BY n.nspname, t.typname, e.enumsortorder";

    /** pgjdbc's {@code connectTimeout} and {@code socketTimeout} are in seconds (jdbc.postgresql.org, "Connecting"). */
    @Override
    public Map<String, String> connectionDefaults() {
        return Map.of("connectTimeout", "10", "socketTimeout", "60");
    }

    @Override
    public List<SourceTable> read(Connection connection, String database, String table, Predicate<String> include)
            throws SQLException {
        CatalogQuery query = new CatalogQuery(connection, statement -> bind(statement, database, table));
        List<TableName> tables = query.tables(TABLES + filter("n.nspname", "c.relname", database, table)
                + " ORDER BY 1, 2").stream().filter(name -> include.test(name.qualifiedName())).toList();
        if (tables.isEmpty()) {
            return List.of();
        }
        Map<String, List<String>> enums = enumLabels(connection);
        Map<TableName, List<SourceColumn>> columns = query.byTable(COLUMNS
                + filter("table_schema", "table_name", database, table)
                + " ORDER BY table_schema, table_name, ordinal_position", (row, name) -> column(row, enums));
        Map<TableName, List<String>> keys = query.byTable(PRIMARY_KEYS
                + filter("n.nspname", "c.relname", database, table) + " ORDER BY n.nspname, c.relname, k.ord",
                (row, name) -> row.getString(3));
        String user = connection.getMetaData().getUserName();
        return CatalogQuery.described(tables, columns, keys, name -> "the source table " + name.qualifiedName()
                + " exists but information_schema shows user '" + user + "' none of its columns: grant it USAGE on"
                + " schema " + name.database() + " and SELECT on the table (as Debezium needs), or exclude the table");
    }

    private static SourceColumn column(ResultSet row, Map<String, List<String>> enums) throws SQLException {
        String name = row.getString("column_name");
        String udtName = row.getString("udt_name");
        String dataType = row.getString("data_type");
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("data_type", dataType);
        String sourceType = udtName;
        Integer length = null;
        Integer scale = null;
        List<String> labels = "USER-DEFINED".equals(dataType)
                ? enums.get(row.getString("udt_schema") + "." + udtName) : null;
        if (labels != null) {
            sourceType = "enum";
            parameters.put("udt_name", udtName);
            parameters.put("allowed", String.join(",", labels));
            length = labels.stream().mapToInt(label -> label.codePointCount(0, label.length())).max().orElse(0);
        } else if (dataType.startsWith("character") || dataType.startsWith("bit")) {
            length = integer(row, "character_maximum_length");
        } else if ("numeric".equals(dataType)) {
            length = integer(row, "numeric_precision");
            scale = integer(row, "numeric_scale");
        } else if (dataType.startsWith("time") || dataType.startsWith("interval")) {
            length = integer(row, "datetime_precision");
        }
        if (row.getString("domain_name") != null) {
            parameters.put("domain", row.getString("domain_name"));
        }
        if ("ALWAYS".equals(row.getString("is_generated"))) {
            parameters.put("generated", "ALWAYS");
        }
        return new SourceColumn(name, sourceType, length, scale, "YES".equals(row.getString("is_nullable")),
                null, null, parameters);
    }

    private static Map<String, List<String>> enumLabels(Connection connection) throws SQLException {
        Map<String, List<String>> labels = new HashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(ENUM_LABELS);
                ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                labels.computeIfAbsent(rows.getString(1) + "." + rows.getString(2), k -> new ArrayList<>())
                        .add(rows.getString(3));
            }
        }
        return labels;
    }

    private static Integer integer(ResultSet row, String column) throws SQLException {
        int value = row.getInt(column);
        return row.wasNull() ? null : value;
    }

    private static String filter(String schemaColumn, String tableColumn, String database, String table) {
        return (database == null ? "" : " AND " + schemaColumn + " = ?") + (table == null ? "" : " AND " + tableColumn
                + " = ?");
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
