package io.lockstep.app.demo;

import io.lockstep.emulator.storage.QueryResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one statement that reads all four shop tables of an emulator (either mode) in one snapshot, and its result
 * as a {@link ShopState}: {@code SELECT 't', c1, ..., cN FROM shop.t UNION ALL ...}, which the emulator runs in one
 * H2 snapshot transaction (its {@code query} contract). Columns are cast to text (DATETIME formatted as StarRocks
 * and Doris print it, {@code yyyy-MM-dd HH:mm:ss}) and padded with NULLs to the widest table.
 */
final class ShopSnapshotQuery {

    /** The statement; the first column names the table. */
    static final String SQL = snapshotSql();

    private ShopSnapshotQuery() {
    }

    /**
     * @param result the rows of {@link #SQL}
     * @return the shop tables' content
     * @throws IllegalArgumentException when a row names a table that is not a shop table
     */
    static ShopState toState(QueryResult result) {
        ShopState state = new ShopState();
        for (List<Object> row : result.rows()) {
            ShopSchema.Table table = ShopSchema.table((String) row.get(0));
            Map<String, Object> values = new LinkedHashMap<>();
            List<ShopSchema.Column> columns = table.columns();
            for (int i = 0; i < columns.size(); i++) {
                values.put(columns.get(i).name(), row.get(i + 1));
            }
            state.upsert(table, values);
        }
        return state;
    }

    private static String snapshotSql() {
        int width = 0;
        for (ShopSchema.Table table : ShopSchema.TABLES) {
            width = Math.max(width, table.columns().size());
        }
        List<String> selects = new ArrayList<>();
        for (ShopSchema.Table table : ShopSchema.TABLES) {
            StringBuilder select = new StringBuilder("SELECT '").append(table.name()).append("' AS t");
            for (int i = 0; i < width; i++) {
                select.append(", ");
                if (i < table.columns().size()) {
                    ShopSchema.Column column = table.columns().get(i);
                    select.append(column.type() == ShopSchema.ColumnType.DATETIME
                            ? "FORMATDATETIME(" + column.name() + ", 'yyyy-MM-dd HH:mm:ss')"
                            : "CAST(" + column.name() + " AS VARCHAR)");
                } else {
                    select.append("CAST(NULL AS VARCHAR)");
                }
                select.append(" AS c").append(i);
            }
            select.append(" FROM ").append(ShopSchema.DATABASE).append('.').append(table.name());
            selects.add(select.toString());
        }
        return String.join(" UNION ALL ", selects);
    }
}
