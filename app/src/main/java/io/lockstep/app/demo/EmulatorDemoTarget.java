package io.lockstep.app.demo;

import io.lockstep.emulator.StarRocksEmulator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The demo's default target: the in-JVM StarRocks-compatible server of the {@code emulator} module (random ports,
 * redirect mode like a real FE and BE, user {@code root} with an empty password), created with
 * {@code examples/shop.sql} (packaged in the jar as {@value #SHOP_DDL_RESOURCE}).
 *
 * <p>Snapshots are one {@code UNION ALL} statement over the four tables ({@link ShopSnapshotQuery}), which the
 * emulator runs in one H2 snapshot transaction (its {@code query} contract), with every value as text.
 */
public final class EmulatorDemoTarget extends EmbeddedDemoTarget<StarRocksEmulator> {

    /** Class-path location of the shop DDL (a copy of {@code examples/shop.sql} made by the build). */
    public static final String SHOP_DDL_RESOURCE = "/io/lockstep/app/demo/shop.sql";

    /** A target that creates its emulator on {@link #start()}. */
    public EmulatorDemoTarget() {
        super(StarRocksEmulator::close);
    }

    @Override
    public String description() {
        return "in-JVM StarRocks-compatible server (emulator), load-url " + loadUrl();
    }

    @Override
    StarRocksEmulator startEmulator() throws Exception {
        return StarRocksEmulator.builder().ddl(shopDdl()).build().start();
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

    @Override
    public String loadUrl() {
        StarRocksEmulator running = emulator();
        return running == null ? "(not started)" : running.feUrl();
    }

    @Override
    public ShopState snapshot() {
        return ShopSnapshotQuery.toState(emulator().query(ShopSnapshotQuery.SQL));
    }
}
