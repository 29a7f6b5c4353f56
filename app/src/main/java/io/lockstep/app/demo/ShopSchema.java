package io.lockstep.app.demo;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's shop schema, as in {@code examples/shop.sql}: tables {@code customers}, {@code orders},
 * {@code order_items} and {@code payments} of source database {@value #DATABASE}, their columns and
 * primary keys. It also fixes one Java type per column type, so rows from the generator, from assembled
 * JSON rows and from JDBC snapshots compare equal: BIGINT {@link Long}, INT {@link Integer}, VARCHAR
 * {@link String}, DECIMAL(12,2) {@link BigDecimal} with scale 2, DATETIME {@link LocalDateTime}.
 */
public final class ShopSchema {

    /** The source database name (Debezium {@code source.db}) and the demo's target database. */
    public static final String DATABASE = "shop";

    /** Text form of DATETIME values, as StarRocks prints and loads them. */
    public static final DateTimeFormatter DATETIME_FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    /** Scale of every DECIMAL column ({@code DECIMAL(12, 2)}). */
    public static final int DECIMAL_SCALE = 2;

    /** Column types used by the shop tables. */
    public enum ColumnType {
        BIGINT, INT, VARCHAR, DECIMAL, DATETIME
    }

    /**
     * @param name column name
     * @param type column type
     */
    public record Column(String name, ColumnType type) {
    }

    /**
     * One table.
     *
     * @param name table name (without database)
     * @param columns columns in table order
     * @param keyColumns primary key columns in key order
     */
    public record Table(String name, List<Column> columns, List<String> keyColumns) {

        /** @return {@code shop.<name>}, Debezium's data collection name */
        public String sourceName() {
            return DATABASE + "." + name;
        }

        /**
         * @param row a row holding at least the key columns
         * @return the key values in key order, normalized
         * @throws IllegalArgumentException naming the table and column when a key column is missing
         */
        public List<Object> keyOf(Map<String, ?> row) {
            List<Object> key = new ArrayList<>(keyColumns.size());
            for (String keyColumn : keyColumns) {
                Object value = row.get(keyColumn);
                if (value == null) {
                    throw new IllegalArgumentException("row of table " + name + " lacks key column " + keyColumn);
                }
                key.add(normalize(this, column(keyColumn), value));
            }
            return key;
        }

        /**
         * @param values column values by name (any of the accepted forms, see {@link ShopSchema#normalize})
         * @return a full row in column order with normalized values; absent columns are {@code null}
         * @throws IllegalArgumentException naming table and column for an unknown column or a bad value
         */
        public Map<String, Object> typedRow(Map<String, ?> values) {
            for (String name : values.keySet()) {
                column(name);
            }
            Map<String, Object> row = new LinkedHashMap<>();
            for (Column column : columns) {
                row.put(column.name(), normalize(this, column, values.get(column.name())));
            }
            return row;
        }

        /** @throws IllegalArgumentException naming the table when it has no such column */
        Column column(String columnName) {
            for (Column column : columns) {
                if (column.name().equals(columnName)) {
                    return column;
                }
            }
            throw new IllegalArgumentException("table " + name + " has no column '" + columnName + "'");
        }
    }

    /** {@code customers}: key {@code customer_id}. */
    public static final Table CUSTOMERS = new Table("customers", List.of(
            new Column("customer_id", ColumnType.BIGINT),
            new Column("name", ColumnType.VARCHAR),
            new Column("email", ColumnType.VARCHAR),
            new Column("updated_at", ColumnType.DATETIME)), List.of("customer_id"));

    /** {@code orders}: key {@code order_id}; {@code total} is the sum of its items' price × quantity. */
    public static final Table ORDERS = new Table("orders", List.of(
            new Column("order_id", ColumnType.BIGINT),
            new Column("customer_id", ColumnType.BIGINT),
            new Column("status", ColumnType.VARCHAR),
            new Column("total", ColumnType.DECIMAL),
            new Column("item_count", ColumnType.INT),
            new Column("created_at", ColumnType.DATETIME)), List.of("order_id"));

    /** {@code order_items}: key {@code (order_id, line_no)}. */
    public static final Table ORDER_ITEMS = new Table("order_items", List.of(
            new Column("order_id", ColumnType.BIGINT),
            new Column("line_no", ColumnType.INT),
            new Column("sku", ColumnType.VARCHAR),
            new Column("quantity", ColumnType.INT),
            new Column("price", ColumnType.DECIMAL)), List.of("order_id", "line_no"));

    /** {@code payments}: key {@code payment_id}. */
    public static final Table PAYMENTS = new Table("payments", List.of(
            new Column("payment_id", ColumnType.BIGINT),
            new Column("order_id", ColumnType.BIGINT),
            new Column("amount", ColumnType.DECIMAL),
            new Column("method", ColumnType.VARCHAR),
            new Column("paid_at", ColumnType.DATETIME)), List.of("payment_id"));

    /** All tables, in {@code shop.sql} order. */
    public static final List<Table> TABLES = List.of(CUSTOMERS, ORDERS, ORDER_ITEMS, PAYMENTS);

    private ShopSchema() {
    }

    /**
     * @param name table name without database
     * @return the table
     * @throws IllegalArgumentException naming the table when the shop has no such table
     */
    public static Table table(String name) {
        for (Table table : TABLES) {
            if (table.name().equals(name)) {
                return table;
            }
        }
        throw new IllegalArgumentException("the shop schema has no table '" + name + "'");
    }

    /** @return key columns per source table {@code shop.<table>}, for {@code CdcFormat.decoder} */
    public static Map<String, List<String>> keyColumnsBySourceTable() {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        for (Table table : TABLES) {
            keys.put(table.sourceName(), table.keyColumns());
        }
        return keys;
    }

    /**
     * Brings a value to the column type's Java type. Accepted: numbers or numeric text for BIGINT, INT and
     * DECIMAL (a DECIMAL is rescaled to 2 places, which must not lose digits); any value for VARCHAR (as
     * text); {@link LocalDateTime}, {@link Timestamp} or text {@code yyyy-MM-dd HH:mm:ss} (or ISO with
     * {@code T}) for DATETIME. {@code null} stays {@code null}.
     *
     * @throws IllegalArgumentException naming table and column when the value does not fit
     */
    static Object normalize(Table table, Column column, Object value) {
        if (value == null) {
            return null;
        }
        try {
            switch (column.type()) {
                case BIGINT:
                    return value instanceof Long ? value : decimal(value).longValueExact();
                case INT:
                    return value instanceof Integer ? value : decimal(value).intValueExact();
                case DECIMAL:
                    return decimal(value).setScale(DECIMAL_SCALE, RoundingMode.UNNECESSARY);
                case DATETIME:
                    return dateTime(value);
                default:
                    return value.toString();
            }
        } catch (ArithmeticException | NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException("table " + table.name() + " column " + column.name()
                    + ": value does not fit " + column.type() + " (" + e.getMessage() + ")", e);
        }
    }

    private static BigDecimal decimal(Object value) {
        if (value instanceof BigDecimal) {
            return (BigDecimal) value;
        }
        return new BigDecimal(value.toString().trim());
    }

    private static LocalDateTime dateTime(Object value) {
        if (value instanceof LocalDateTime) {
            return (LocalDateTime) value;
        }
        if (value instanceof Timestamp) {
            return ((Timestamp) value).toLocalDateTime();
        }
        String text = value.toString().trim();
        return text.indexOf('T') > 0 ? LocalDateTime.parse(text)
                : LocalDateTime.parse(text, DATETIME_FORMAT);
    }

    /** @return the text form of a normalized value for a JSON row: DECIMAL plain, DATETIME formatted */
    static Object jsonValue(Object value) {
        if (value instanceof BigDecimal) {
            return ((BigDecimal) value).toPlainString();
        }
        if (value instanceof LocalDateTime) {
            return DATETIME_FORMAT.format((LocalDateTime) value);
        }
        return value;
    }
}
