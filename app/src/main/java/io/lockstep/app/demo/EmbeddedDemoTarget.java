package io.lockstep.app.demo;

import java.util.Map;
import java.util.function.Consumer;

/**
 * What the demo's in-JVM targets ({@link EmulatorDemoTarget}, {@link DorisDemoTarget}) share whatever the dialect:
 * one emulator created by {@link #start()} and closed by {@link #close()}, its default user {@code root} with an
 * empty password, no JDBC endpoint and no extra sink properties.
 *
 * @param <E> the emulator type
 */
abstract class EmbeddedDemoTarget<E> implements DemoTarget {
    private final Consumer<E> closer;
    /** Set by {@link #start()} (main thread) before other threads use this target; closed by {@link #close()}. */
    private volatile E emulator;

    /**
     * @param closer closes an emulator (its {@code close()}, which throws no checked exception)
     */
    EmbeddedDemoTarget(Consumer<E> closer) {
        this.closer = closer;
    }

    /**
     * Creates the emulator with the shop schema and starts it.
     *
     * @throws Exception as {@link #start()} documents
     */
    abstract E startEmulator() throws Exception;

    /**
     * @throws java.io.IOException when the packaged DDL is missing
     * @throws io.lockstep.emulator.catalog.DdlException when the DDL is invalid
     * @throws IllegalStateException when no port can be bound
     */
    @Override
    public final void start() throws Exception {
        emulator = startEmulator();
    }

    /** @return the running emulator (for tests and fault injection), or {@code null} before {@link #start()} */
    public E emulator() {
        return emulator;
    }

    /**
     * @return always {@code null}: the emulators serve a MySQL-protocol query port, but the lockstep jar ships no
     *         MySQL driver, so a probe could only log that it was skipped
     */
    @Override
    public String jdbcUrl() {
        return null;
    }

    /** @return {@code root}, the emulators' default user */
    @Override
    public String username() {
        return "root";
    }

    /** @return the empty password of the default user */
    @Override
    public String password() {
        return "";
    }

    /** @return no properties beyond the defaults */
    @Override
    public Map<String, String> sinkProperties() {
        return Map.of();
    }

    @Override
    public void close() {
        E running = emulator;
        if (running != null) {
            closer.accept(running);
        }
    }
}
