package io.lockstep.emulator;

import io.lockstep.emulator.catalog.DdlException;
import io.lockstep.emulator.fault.Faults;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The JUnit 5 lifecycle both emulator extensions share ({@link StarRocksEmulatorExtension},
 * {@link DorisEmulatorExtension}): registered in a static field, one emulator serves the whole class (started
 * before all, closed after all); in an instance field, each test gets a fresh one. Fault rules are cleared after
 * each test either way. Used by the one JUnit thread running the test class.
 *
 * @param <E> the emulator type
 */
public abstract class EmulatorExtension<E extends AutoCloseable>
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    /** Owned by the JUnit thread running the test class. */
    private E emulator;
    private boolean perClass;

    EmulatorExtension() {
    }

    /**
     * Builds and starts a new emulator.
     *
     * @throws DdlException if the builder's DDL is invalid
     */
    abstract E startEmulator() throws DdlException;

    /** The fault rules of an emulator, cleared after each test. */
    abstract Faults faultsOf(E running);

    /**
     * The running emulator.
     *
     * @throws IllegalStateException outside a test
     */
    public E emulator() {
        if (emulator == null) {
            throw new IllegalStateException("the emulator runs only while a test runs");
        }
        return emulator;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws DdlException {
        perClass = true;
        emulator = startEmulator();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        close();
    }

    @Override
    public void beforeEach(ExtensionContext context) throws DdlException {
        if (!perClass) {
            emulator = startEmulator();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        if (emulator != null) {
            faultsOf(emulator).clear();
        }
        if (!perClass) {
            close();
        }
    }

    private void close() throws Exception {
        if (emulator != null) {
            emulator.close();
            emulator = null;
        }
    }
}
