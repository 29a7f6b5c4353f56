package io.lockstep.emulator;

import io.lockstep.emulator.catalog.DdlException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

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
public final class StarRocksEmulatorExtension
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    private final StarRocksEmulator.Builder builder;
    /** Owned by the JUnit thread running the test class. */
    private StarRocksEmulator emulator;
    private boolean perClass;

    /** An extension with the builder's settings. */
    public StarRocksEmulatorExtension(StarRocksEmulator.Builder builder) {
        this.builder = builder;
    }

    /** An extension with the defaults (no tables; add them with {@code emulator().executeDdl}). */
    public StarRocksEmulatorExtension() {
        this(StarRocksEmulator.builder());
    }

    /**
     * The running emulator.
     *
     * @throws IllegalStateException outside a test
     */
    public StarRocksEmulator emulator() {
        if (emulator == null) {
            throw new IllegalStateException("the emulator runs only while a test runs");
        }
        return emulator;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws DdlException {
        perClass = true;
        emulator = builder.build().start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    @Override
    public void beforeEach(ExtensionContext context) throws DdlException {
        if (!perClass) {
            emulator = builder.build().start();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (emulator != null) {
            emulator.faults().clear();
        }
        if (!perClass) {
            close();
        }
    }

    private void close() {
        if (emulator != null) {
            emulator.close();
            emulator = null;
        }
    }
}
