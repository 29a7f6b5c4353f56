package io.lockstep.app.create;

import io.lockstep.app.route.TargetTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The StarRocks {@code CREATE TABLE} for one source table: a Primary Key table keyed as the source (or as
 * {@link TableCreationOptions#keyColumns()} says), the key columns first in key order and NOT NULL, the other columns
 * in source order and nullable, {@code DISTRIBUTED BY HASH(key) [BUCKETS n]}, {@code PROPERTIES(...)} when given, no
 * comments. Names are backquoted. StarRocks docs "CREATE TABLE" and "Primary Key table" give the rules;
 * docs/table-creation.md#keys says what is refused:
 * <ul>
 *   <li>a source table without a primary key and without {@code --key-columns} (a Duplicate Key table could neither
 *       update nor delete its rows, so loading would keep stale rows);
 *   <li>a key column whose StarRocks type is not BOOLEAN, an integer, DATE, DATETIME, VARCHAR or STRING (Primary Key
 *       tables refuse DECIMAL, FLOAT, DOUBLE, JSON keys);
 *   <li>a key that can be longer than {@link TableCreationOptions#primaryKeyLimitBytes()} as StarRocks encodes it
 *       (fixed-size types their size, a VARCHAR its bytes, plus 2 bytes a string column in a key of several
 *       columns; the BE's {@code primary_key_limit_size}, 128 by default);
 *   <li>a database, table or column name StarRocks does not take (letters, digits and underscores, not starting with
 *       a digit; StarRocks docs "System limits"), or two column names that differ only in case (StarRocks' column
 *       names are case-insensitive).
 * </ul>
 *
 * @param target the table to create
 * @param source the source table it is made from
 * @param columns the columns in table order
 * @param keyColumns the primary key's columns in key order (the first columns of {@code columns})
 * @param buckets the {@code BUCKETS n}; 0 leaves it out
 * @param properties the table's {@code PROPERTIES} in order
 */
public record CreateTableStatement(TargetTable target, SourceTable source, List<Column> columns,
        List<String> keyColumns, int buckets, Map<String, String> properties) {

    private static final Logger LOG = LoggerFactory.getLogger(CreateTableStatement.class);
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final int TABLE_NAME_MAX = 1024;
    private static final int DATABASE_NAME_MAX = 256;
    private static final Pattern TYPE = Pattern.compile("([A-Za-z][A-Za-z0-9_]*)\\s*(?:\\(\\s*(\\d+)\\s*(?:,.*)?\\))?");

    /**
     * One column of the table.
     *
     * @param name the name, as in the source
     * @param type the StarRocks type, e.g. {@code VARCHAR(256)}
     * @param nullable false for key columns
     */
    public record Column(String name, String type, boolean nullable) {
    }

    /** @throws NullPointerException when a part is {@code null} */
    public CreateTableStatement {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(source, "source");
        columns = List.copyOf(columns);
        keyColumns = List.copyOf(keyColumns);
        properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    /**
     * @param source the source table
     * @param target where it goes
     * @param options buckets, properties, overrides
     * @return the statement
     * @throws TableRefusedException (an {@link UnmappableColumnException} for a column) naming the source table and
     *     the fix, for the cases above and columns no StarRocks type holds exactly
     */
    public static CreateTableStatement of(SourceTable source, TargetTable target, TableCreationOptions options) {
        checkName(source, "database", target.database(), DATABASE_NAME_MAX);
        checkName(source, "table", target.table(), TABLE_NAME_MAX);
        List<String> key = options.keyColumns().getOrDefault(source.qualifiedName(), source.primaryKey());
        if (key.isEmpty()) {
            throw new TableRefusedException("table " + source.qualifiedName() + " has no primary key, so updates and"
                    + " deletes could not find their rows in StarRocks: give it one in the source, name its key"
                    + " with --key-columns " + source.qualifiedName() + "=COL[+COL...], or exclude it");
        }
        List<Column> keyPart = new ArrayList<>();
        List<Column> rest = new ArrayList<>();
        for (String name : key) {
            if (source.columns().stream().noneMatch(c -> c.name().equals(name))) {
                throw new TableRefusedException("table " + source.qualifiedName() + " has no column '" + name
                        + "' for its primary key " + key);
            }
        }
        Set<String> seen = new HashSet<>();
        List<String> leftOut = new ArrayList<>();
        for (SourceColumn column : source.columns()) {
            if (notReplicated(column)) {
                if (key.contains(column.name())) {
                    throw new TableRefusedException("table " + source.qualifiedName() + " has the generated column '"
                            + column.name() + "' in its primary key, and PostgreSQL's logical replication sends no"
                            + " value for generated columns: key it with --key-columns " + source.qualifiedName()
                            + "=COL[+COL...] over stored columns, or exclude it");
                }
                leftOut.add(column.name());
                continue;
            }
            checkName(source, "column", column.name(), TABLE_NAME_MAX);
            if (!seen.add(column.name().toLowerCase(Locale.ROOT))) {
                throw new TableRefusedException("table " + source.qualifiedName() + " has two columns named '"
                        + column.name() + "' apart from case, which StarRocks' case-insensitive column names cannot"
                        + " tell apart: rename one in the source, or exclude the table");
            }
            String override = options.columnTypes().get(source.qualifiedName() + "." + column.name());
            String type = override != null ? override.strip() : StarRocksColumnType.of(source, column);
            boolean isKey = key.contains(column.name());
            (isKey ? keyPart : rest).add(new Column(column.name(), type, !isKey));
        }
        keyPart.sort((a, b) -> Integer.compare(key.indexOf(a.name()), key.indexOf(b.name())));
        checkKey(source, keyPart, options.primaryKeyLimitBytes());
        if (!leftOut.isEmpty()) {
            LOG.info("table {}: generated column(s) {} left out of {}: PostgreSQL's logical replication sends no value"
                    + " for them (before PostgreSQL 18), so they would only ever read NULL", source.qualifiedName(),
                    leftOut, target);
        }
        List<Column> columns = new ArrayList<>(keyPart);
        columns.addAll(rest);
        return new CreateTableStatement(target, source, columns, key, options.buckets(), options.properties());
    }

    /**
     * @return whether no change event ever carries the column's value: a PostgreSQL generated column
     *     ({@code information_schema.columns.is_generated = 'ALWAYS'}, read by the source catalog), which pgoutput
     *     does not publish before PostgreSQL 18 (PostgreSQL docs "Logical Replication", "Generated Column
     *     Replication"); an event's schema never lists such a column
     */
    private static boolean notReplicated(SourceColumn column) {
        return "ALWAYS".equals(column.parameters().get("generated"));
    }

    /** @return the statement text, without a trailing semicolon */
    public String sql() {
        StringBuilder sql = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(quoted(target.database()))
                .append('.').append(quoted(target.table())).append(" (\n");
        for (int i = 0; i < columns.size(); i++) {
            Column column = columns.get(i);
            sql.append("  ").append(quoted(column.name())).append(' ').append(column.type())
                    .append(column.nullable() ? " NULL" : " NOT NULL").append(i + 1 < columns.size() ? ",\n" : "\n");
        }
        String key = keyColumns.stream().map(CreateTableStatement::quoted).collect(Collectors.joining(", "));
        sql.append(") PRIMARY KEY (").append(key).append(")\nDISTRIBUTED BY HASH(").append(key).append(')');
        if (buckets > 0) {
            sql.append(" BUCKETS ").append(buckets);
        }
        if (!properties.isEmpty()) {
            sql.append("\nPROPERTIES (").append(properties.entrySet().stream()
                    .map(p -> "\"" + p.getKey() + "\" = \"" + p.getValue() + "\"")
                    .collect(Collectors.joining(", "))).append(')');
        }
        return sql.toString();
    }

    /** @return {@code name} as a StarRocks quoted identifier */
    static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    private static void checkName(SourceTable source, String what, String name, int max) {
        if (!NAME.matcher(name).matches() || name.length() > max) {
            throw new TableRefusedException("table " + source.qualifiedName() + ": the " + what + " name '" + name
                    + "' is not one StarRocks takes (letters, digits and underscores, not starting with a digit, at"
                    + " most " + max + " characters): rename it in the source, choose another target name, or"
                    + " exclude the table");
        }
    }

    private static void checkKey(SourceTable source, List<Column> key, int limitBytes) {
        long bytes = 0;
        for (Column column : key) {
            Matcher type = TYPE.matcher(column.type());
            String base = type.matches() ? type.group(1).toUpperCase(Locale.ROOT) : column.type();
            int size = switch (base) {
                case "BOOLEAN", "TINYINT" -> 1;
                case "SMALLINT" -> 2;
                case "INT", "DATE" -> 4;
                case "BIGINT", "DATETIME" -> 8;
                case "LARGEINT" -> 16;
                case "VARCHAR" -> type.group(2) == null ? 1 : Integer.parseInt(type.group(2));
                case "STRING" -> 65_533;
                default -> throw new TableRefusedException("table " + source.qualifiedName() + ": primary key column '"
                        + column.name() + "' would be " + column.type() + ", which a StarRocks Primary Key table does"
                        + " not take as a key (BOOLEAN, integers, DATE, DATETIME, VARCHAR, STRING): map it with"
                        + " --column-type " + source.qualifiedName() + "." + column.name() + "=TYPE, or key the table"
                        + " with --key-columns");
            };
            bytes += size + (key.size() > 1 && (base.equals("VARCHAR") || base.equals("STRING")) ? 2 : 0);
        }
        if (bytes > limitBytes) {
            throw new TableRefusedException("table " + source.qualifiedName() + ": its primary key "
                    + key.stream().map(c -> c.name() + " " + c.type()).collect(Collectors.joining(", ", "(", ")"))
                    + " can take " + bytes + " bytes, more than the " + limitBytes + " bytes a StarRocks primary key"
                    + " may have (BE primary_key_limit_size): map a text key column to a shorter VARCHAR with"
                    + " --column-type " + source.qualifiedName() + ".COLUMN=VARCHAR(n) (n in bytes; a longer value is"
                    + " then refused at load), or key it by shorter columns with --key-columns");
        }
    }
}
