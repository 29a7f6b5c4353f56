package io.lockstep.emulator;

import io.lockstep.emulator.catalog.DdlException;
import io.lockstep.emulator.fault.Faults;

/**
 * JUnit 5 extension running a {@link StarRocksEmulator} on random ports.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final StarRocksEmulatorExtension SR = new StarRocksEmulatorExtension(
 *         StarRocksEmulator.builder().ddl("CREATE DATABASE d; ..."));
 * ... SR.emulator().feUrl() ...
 * }</pre>
 *
 * Registered in a static field, one emulator serves the whole class (started before all, closed after all);
 * in an instance field, each test gets a fresh one. Fault rules are cleared after each test either way.
 */
public final class StarRocksEmulatorExtension extends EmulatorExtension<StarRocksEmulator> {
    private final StarRocksEmulator.Builder builder;

    /** An extension with the builder's settings. */
    public StarRocksEmulatorExtension(StarRocksEmulator.Builder builder) {
        this.builder = builder;
    }

    /** An extension with the defaults (no tables; add them with {@code emulator().executeDdl}). */
    public StarRocksEmulatorExtension() {
        this(StarRocksEmulator.builder());
    }

    /**
     * The running emulator (declared here with its own type, so code compiled against this class keeps linking).
     *
     * @throws IllegalStateException outside a test
     */
    @Override
    public StarRocksEmulator emulator() {
        return super.emulator();
    }

    @Override
    StarRocksEmulator startEmulator() throws DdlException {
        return builder.build().start();
    }

    @Override
    Faults faultsOf(StarRocksEmulator running) {
        return running.faults();
    }
}
