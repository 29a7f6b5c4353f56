package io.lockstep.app.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.lockstep.app.demo.ShopSchema.Table;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The content of the four shop tables, row by row: per table, primary key (values in key order) to row
 * (column name to value, in column order, values normalized by {@link ShopSchema}). The generator keeps
 * the expected state in one; a test or the demo can rebuild one from assembled rows
 * ({@link #applyLoadRow}) or from a snapshot of the target tables ({@link #upsert}), then compare with
 * {@link #equals} or {@link #differences} and check {@link ShopInvariants}.
 *
 * <p>Not thread safe: one owner at a time (the generator's state belongs to the thread that calls
 * {@code next()}); hand other threads a {@link #copy()}.
 */
public final class ShopState {

    /** The column StarRocks reads the operation from: 0 upsert, 1 delete. */
    private static final String OP_COLUMN = "__op";
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    /** Table name to (key to row); every shop table present. */
    private final Map<String, Map<List<Object>, Map<String, Object>>> tables = new LinkedHashMap<>();

    /** An empty shop: all four tables without rows. */
    public ShopState() {
        for (Table table : ShopSchema.TABLES) {
            tables.put(table.name(), new LinkedHashMap<>());
        }
    }

    /** @return a deep copy (rows are copied; values are immutable) */
    public ShopState copy() {
        ShopState copy = new ShopState();
        tables.forEach((name, rows) -> rows.forEach((key, row) ->
                copy.tables.get(name).put(key, new LinkedHashMap<>(row))));
        return copy;
    }

    /**
     * Inserts or replaces a whole row (StarRocks primary-key upsert with all columns).
     *
     * @param table the table
     * @param values column values, normalized here
     * @return the normalized row as stored
     * @throws IllegalArgumentException naming table and column for an unknown column, a bad value or a
     *     missing key column
     */
    public Map<String, Object> upsert(Table table, Map<String, ?> values) {
        Map<String, Object> row = table.typedRow(values);
        rowsOf(table).put(table.keyOf(row), row);
        return row;
    }

    /**
     * @param table the table
     * @param key key values in key order, normalized
     * @return the removed row, or {@code null} when there was none
     */
    public Map<String, Object> delete(Table table, List<Object> key) {
        return rowsOf(table).remove(key);
    }

    /**
     * @param table the table
     * @param key key values in key order, normalized (e.g. {@code List.of(42L)})
     * @return the row (read-only), or {@code null}
     */
    public Map<String, Object> get(Table table, List<Object> key) {
        Map<String, Object> row = rowsOf(table).get(key);
        return row == null ? null : Collections.unmodifiableMap(row);
    }

    /** @return key to row of the table, read-only, in insertion order */
    public Map<List<Object>, Map<String, Object>> rows(Table table) {
        return Collections.unmodifiableMap(rowsOf(table));
    }

    /** @return the number of rows in the table */
    public int rowCount(Table table) {
        return rowsOf(table).size();
    }

    /**
     * Applies one row as the sink would load it into a primary-key table: a JSON object with every column;
     * with {@code "__op": 1} it deletes the row of its key, otherwise it replaces the row.
     *
     * @param tableName target table name (without database)
     * @param jsonRow the row's JSON text (a {@code LoadRow}'s row)
     * @throws IllegalArgumentException naming the table when the JSON is malformed, the table unknown or a
     *     value does not fit its column (never quoting the row)
     */
    public void applyLoadRow(String tableName, String jsonRow) {
        Table table = ShopSchema.table(tableName);
        JsonNode node;
        try {
            node = MAPPER.readTree(jsonRow);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("malformed JSON row for table " + tableName, e);
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("row for table " + tableName + " is not a JSON object");
        }
        Map<String, Object> values = new LinkedHashMap<>();
        boolean delete = false;
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (OP_COLUMN.equals(field.getKey())) {
                delete = field.getValue().asInt() == 1;
            } else {
                values.put(field.getKey(), scalar(field.getValue()));
            }
        }
        if (delete) {
            delete(table, table.keyOf(values));
        } else {
            upsert(table, values);
        }
    }

    private static Object scalar(JsonNode value) {
        if (value.isNull()) {
            return null;
        }
        if (value.isNumber()) {
            return value.decimalValue();
        }
        return value.asText();
    }

    /**
     * @param other another state
     * @param max most differences to describe
     * @return up to {@code max} descriptions, each naming table and key and saying which side lacks the row
     *     or which columns differ (values are not quoted); empty when the states are equal
     */
    public List<String> differences(ShopState other, int max) {
        List<String> out = new ArrayList<>();
        for (Table table : ShopSchema.TABLES) {
            Map<List<Object>, Map<String, Object>> mine = rowsOf(table);
            Map<List<Object>, Map<String, Object>> theirs = other.rowsOf(table);
            for (Map.Entry<List<Object>, Map<String, Object>> entry : mine.entrySet()) {
                Map<String, Object> theirRow = theirs.get(entry.getKey());
                if (theirRow == null) {
                    add(out, max, table.name() + " key " + entry.getKey() + ": only in this state");
                } else if (!theirRow.equals(entry.getValue())) {
                    List<String> columns = new ArrayList<>();
                    entry.getValue().forEach((column, value) -> {
                        if (!Objects.equals(value, theirRow.get(column))) {
                            columns.add(column);
                        }
                    });
                    add(out, max, table.name() + " key " + entry.getKey() + ": columns " + columns + " differ");
                }
            }
            for (List<Object> key : theirs.keySet()) {
                if (!mine.containsKey(key)) {
                    add(out, max, table.name() + " key " + key + ": only in the other state");
                }
            }
        }
        return out;
    }

    private static void add(List<String> out, int max, String difference) {
        if (out.size() < max) {
            out.add(difference);
        }
    }

    private Map<List<Object>, Map<String, Object>> rowsOf(Table table) {
        Map<List<Object>, Map<String, Object>> rows = tables.get(table.name());
        if (rows == null) {
            throw new IllegalArgumentException("the shop schema has no table '" + table.name() + "'");
        }
        return rows;
    }

    /** Equal when every table holds the same keys with equal rows (row order does not matter). */
    @Override
    public boolean equals(Object o) {
        return o instanceof ShopState && tables.equals(((ShopState) o).tables);
    }

    @Override
    public int hashCode() {
        return tables.hashCode();
    }

    /** @return row counts per table (rows may hold personal data and stay out of logs) */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("ShopState{");
        tables.forEach((name, rows) -> text.append(name).append('=').append(rows.size()).append(' '));
        return text.toString().trim() + "}";
    }
}
