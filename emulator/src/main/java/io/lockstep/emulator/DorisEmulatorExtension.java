package io.lockstep.emulator;

import io.lockstep.emulator.catalog.DdlException;
import io.lockstep.emulator.fault.Faults;

/**
 * JUnit 5 extension running a {@link DorisEmulator} on random ports.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final DorisEmulatorExtension DORIS = new DorisEmulatorExtension(
 *         DorisEmulator.builder().ddl("CREATE DATABASE d; CREATE TABLE d.t (...) UNIQUE KEY(id) ..."));
 * ... DORIS.emulator().feHostPort() ...
 * }</pre>
 *
 * Registered in a static field, one emulator serves the whole class (started before all, closed after all);
 * in an instance field, each test gets a fresh one. Fault rules are cleared after each test either way.
 */
public final class DorisEmulatorExtension extends EmulatorExtension<DorisEmulator> {
    private final DorisEmulator.Builder builder;

    /** An extension with the builder's settings. */
    public DorisEmulatorExtension(DorisEmulator.Builder builder) {
        this.builder = builder;
    }

    /** An extension with the defaults (no tables; add them with {@code emulator().executeDdl}). */
    public DorisEmulatorExtension() {
        this(DorisEmulator.builder());
    }

    /**
     * The running emulator (declared here with its own type, so code compiled against this class keeps linking).
     *
     * @throws IllegalStateException outside a test
     */
    @Override
    public DorisEmulator emulator() {
        return super.emulator();
    }

    @Override
    DorisEmulator startEmulator() throws DdlException {
        return builder.build().start();
    }

    @Override
    Faults faultsOf(DorisEmulator running) {
        return running.faults();
    }
}
