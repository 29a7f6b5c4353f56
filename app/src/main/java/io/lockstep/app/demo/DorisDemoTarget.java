package io.lockstep.app.demo;

import io.lockstep.emulator.DorisEmulator;
import io.lockstep.core.server.Target;

/**
 * {@code lockstep demo --target doris}: the in-JVM Apache Doris stream-load server of the {@code emulator} module
 * (Doris mode: FE and BE on random ports, 307 redirects, two-phase stream load, user {@code root} with an empty
 * password), created with {@code examples/shop-doris.sql} (UNIQUE KEY tables, packaged in the jar as
 * {@value #SHOP_DDL_RESOURCE}). The job loads it with the per-table exactly-once sink ({@link Target#DORIS},
 * docs/doris.md), so the cross-table invariants are informational here.
 *
 * <p>Snapshots are the same one-statement read as {@link EmulatorDemoTarget}'s ({@link ShopSnapshotQuery}), over
 * VISIBLE data only.
 */
public final class DorisDemoTarget extends EmbeddedDemoTarget<DorisEmulator> {

    /** Class-path location of the Doris shop DDL (a copy of {@code examples/shop-doris.sql} made by the build). */
    public static final String SHOP_DDL_RESOURCE = "/io/lockstep/app/demo/shop-doris.sql";

    /** A target that creates its emulator on {@link #start()}. */
    public DorisDemoTarget() {
        super(DorisEmulator::close);
    }

    @Override
    public String description() {
        return "in-JVM Apache Doris-compatible server (emulator, Doris mode), fenodes " + loadUrl()
                + ", per-table exactly-once (two-phase commit)";
    }

    @Override
    DorisEmulator startEmulator() throws Exception {
        return DorisEmulator.builder().ddl(EmulatorDemoTarget.ddlResource(SHOP_DDL_RESOURCE)).build().start();
    }

    /** @return the FE address {@code host:port} (Doris' {@code fenodes} form) */
    @Override
    public String loadUrl() {
        DorisEmulator running = emulator();
        return running == null ? "(not started)" : running.feHostPort();
    }

    @Override
    public Target sinkTarget() {
        return Target.DORIS;
    }

    @Override
    public ShopState snapshot() {
        return ShopSnapshotQuery.toState(emulator().query(ShopSnapshotQuery.SQL));
    }
}
