package io.lockstep.app.create;

import java.io.Serializable;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How table creation shapes the tables it creates (docs/table-creation.md).
 *
 * @param buckets the {@code BUCKETS n} of {@code DISTRIBUTED BY HASH(key)}; 0 leaves it out, so StarRocks picks the
 *     number (StarRocks docs "CREATE TABLE", since 2.5.7)
 * @param properties the table's {@code PROPERTIES}, e.g. {@code replication_num=1}, in the order given; never
 *     {@code null}
 * @param columnTypes StarRocks types that replace the mapped type of a column: {@code db.table.column} (the source's
 *     names) to a type such as {@code VARCHAR(64)} or {@code DECIMAL(38,10)}; never {@code null}
 * @param keyColumns key columns that replace a source table's primary key (or give a table without one a key):
 *     {@code db.table} to the columns in key order, as {@code --key-columns} gives them; never {@code null}
 * @param primaryKeyLimitBytes the longest primary key a table may have, in bytes as StarRocks encodes it: 128 by
 *     default, the BE setting {@code primary_key_limit_size}; a table whose key can be longer is refused
 */
public record TableCreationOptions(int buckets, Map<String, String> properties, Map<String, String> columnTypes,
        Map<String, List<String>> keyColumns, int primaryKeyLimitBytes) implements Serializable {

    /** StarRocks' default BE {@code primary_key_limit_size} (bytes of one encoded primary key). */
    public static final int DEFAULT_PRIMARY_KEY_LIMIT_BYTES = 128;

    /** A StarRocks type as an override may name it: a word or two, an optional {@code (n)} or {@code (p,s)}. */
    private static final Pattern TYPE =
            Pattern.compile("[A-Za-z][A-Za-z0-9_]*(\\s*\\(\\s*\\d+\\s*(,\\s*\\d+\\s*)?\\))?");
    private static final Pattern PROPERTY_NAME = Pattern.compile("[A-Za-z0-9_.\\-]+");

    /**
     * @throws IllegalArgumentException naming the bad entry: negative buckets or key limit, a property name that
     *     is not {@code [A-Za-z0-9_.-]+} or a value holding a double quote, an override key that is not
     *     {@code db.table.column}, an override type that is not a type name with an optional {@code (n)} or
     *     {@code (p,s)}, an empty key column list
     */
    public TableCreationOptions {
        if (buckets < 0) {
            throw new IllegalArgumentException("table buckets must be 0 (StarRocks picks) or more, got " + buckets);
        }
        if (primaryKeyLimitBytes < 1) {
            throw new IllegalArgumentException("the primary key limit must be at least 1 byte, got "
                    + primaryKeyLimitBytes);
        }
        LinkedHashMap<String, String> ordered = new LinkedHashMap<>(properties == null ? Map.of() : properties);
        ordered.forEach((key, value) -> {
            if (!PROPERTY_NAME.matcher(key).matches() || value == null || value.contains("\"")
                    || value.contains("\\")) {
                throw new IllegalArgumentException("table property '" + key + "=" + value + "' is not NAME=VALUE"
                        + " with a name of letters, digits, '_', '.', '-' and a value without quotes or backslashes");
            }
        });
        properties = Collections.unmodifiableMap(ordered);
        columnTypes = columnTypes == null ? Map.of() : Map.copyOf(columnTypes);
        columnTypes.forEach((column, type) -> {
            if (column.split("\\.", -1).length != 3 || column.startsWith(".") || column.endsWith(".")
                    || column.contains("..")) {
                throw new IllegalArgumentException("column type override '" + column + "=" + type
                        + "' must name SRC_DB.TABLE.COLUMN");
            }
            if (type == null || !TYPE.matcher(type.strip()).matches()) {
                throw new IllegalArgumentException("column type override '" + column + "=" + type
                        + "' does not name a StarRocks type such as VARCHAR(64) or DECIMAL(38,10)");
            }
        });
        Map<String, List<String>> keys = new HashMap<>();
        (keyColumns == null ? Map.<String, List<String>>of() : keyColumns).forEach((table, columns) -> {
            if (columns == null || columns.isEmpty()) {
                throw new IllegalArgumentException("key columns of " + table + " are empty");
            }
            keys.put(table, List.copyOf(columns));
        });
        keyColumns = Map.copyOf(keys);
    }

    /** @return no buckets (StarRocks picks), no properties, no overrides, the default key limit */
    public static TableCreationOptions defaults() {
        return new TableCreationOptions(0, Map.of(), Map.of(), Map.of(), DEFAULT_PRIMARY_KEY_LIMIT_BYTES);
    }
}
