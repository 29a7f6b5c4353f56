package io.lockstep.app.demo;

import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.storage.QueryResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's default target: the in-JVM StarRocks-compatible server of the {@code emulator} module (random ports,
 * redirect mode like a real FE and BE, user {@code root} with an empty password), created with
 * {@code examples/shop.sql} (packaged in the jar as {@value #SHOP_DDL_RESOURCE}).
 *
 * <p>Snapshots are one {@code UNION ALL} statement over the four tables, which the emulator runs in one H2
 * snapshot transaction (its {@code query} contract), with every value as text.
 */
public final class EmulatorDemoTarget implements DemoTarget {

    /** Class-path location of the shop DDL (a copy of {@code examples/shop.sql} made by the build). */
    public static final String SHOP_DDL_RESOURCE = "/io/lockstep/app/demo/shop.sql";

    private static final String SNAPSHOT_SQL = snapshotSql();

    /** Set by {@link #start()} (main thread) before other threads use this target; closed by {@link #close()}. */
    private volatile StarRocksEmulator emulator;

    @Override
    public String description() {
        return "in-JVM StarRocks-compatible server (emulator), load-url " + loadUrl();
    }

    /**
     * @throws IOException when the packaged DDL is missing
     * @throws io.lockstep.emulator.catalog.DdlException when the DDL is invalid
     * @throws IllegalStateException when no port can be bound
     */
    @Override
    public void start() throws Exception {
        emulator = StarRocksEmulator.builder().ddl(shopDdl()).build().start();
    }

    /** @return the DDL of the shop schema ({@code examples/shop.sql}) */
    public static String shopDdl() throws IOException {
        try (InputStream in = EmulatorDemoTarget.class.getResourceAsStream(SHOP_DDL_RESOURCE)) {
            if (in == null) {
                throw new IOException("the shop DDL " + SHOP_DDL_RESOURCE + " is not on the class path (the build "
                        + "copies examples/shop.sql there)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** @return the running emulator (for tests and fault injection), or {@code null} before {@link #start()} */
    public StarRocksEmulator emulator() {
        return emulator;
    }

    @Override
    public String loadUrl() {
        return emulator == null ? "(not started)" : emulator.feUrl();
    }

    @Override
    public String jdbcUrl() {
        return null;
    }

    @Override
    public String username() {
        return "root";
    }

    @Override
    public String password() {
        return "";
    }

    @Override
    public Map<String, String> sinkProperties() {
        return Map.of();
    }

    @Override
    public ShopState snapshot() {
        QueryResult result = emulator.query(SNAPSHOT_SQL);
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

    @Override
    public void close() {
        StarRocksEmulator running = emulator;
        if (running != null) {
            running.close();
        }
    }

    /**
     * {@code SELECT 't', c1, ..., cN FROM shop.t UNION ALL ...}: one statement, so one snapshot. Columns are cast
     * to text (DATETIME formatted as StarRocks prints it) and padded with NULLs to the widest table.
     */
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
