package io.lockstep.app.demo;

import io.lockstep.emulator.StarRocksEmulator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The demo's default target: the in-JVM StarRocks-compatible server of the {@code emulator} module (random ports,
 * redirect mode like a real FE and BE, user {@code root} with an empty password), created with
 * {@code examples/shop.sql} (packaged in the jar as {@value #SHOP_DDL_RESOURCE}).
 *
 * <p>Snapshots are one {@code UNION ALL} statement over the four tables ({@link ShopSnapshotQuery}), which the
 * emulator runs in one H2 snapshot transaction (its {@code query} contract), with every value as text.
 */
public final class EmulatorDemoTarget implements DemoTarget {

    /** Class-path location of the shop DDL (a copy of {@code examples/shop.sql} made by the build). */
    public static final String SHOP_DDL_RESOURCE = "/io/lockstep/app/demo/shop.sql";

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
        return ddlResource(SHOP_DDL_RESOURCE);
    }

    /**
     * @param resource class-path location of a DDL file the build copies from {@code examples/}
     * @return its text
     * @throws IOException naming the resource when it is missing
     */
    static String ddlResource(String resource) throws IOException {
        try (InputStream in = EmulatorDemoTarget.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("the shop DDL " + resource + " is not on the class path (the build copies "
                        + "it from examples/)");
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
        return ShopSnapshotQuery.toState(emulator.query(ShopSnapshotQuery.SQL));
    }

    @Override
    public void close() {
        StarRocksEmulator running = emulator;
        if (running != null) {
            running.close();
        }
    }
}
