package io.lockstep.app.demo;

import io.lockstep.core.server.Target;
import java.util.Map;

/**
 * The server the demo loads into, behind one small seam so another target (e.g. Apache Doris) can replace the
 * in-JVM StarRocks-compatible server without touching the demo: it starts with the shop schema, tells the sink
 * where to load, and reads consistent snapshots of the four shop tables.
 *
 * <p>Threads: {@link #start()} and {@link #close()} are called by the demo's main thread; {@link #snapshot()} by
 * the snapshot reader thread while the job runs; the accessors by any thread after {@link #start()}.
 */
public interface DemoTarget extends AutoCloseable {

    /** @return a one-line description for the demo's header, e.g. the kind of server and its load URL */
    String description();

    /**
     * Starts the server (or connects to it) and creates database {@value ShopSchema#DATABASE} with the shop
     * tables of {@code examples/shop.sql}, empty.
     *
     * @throws Exception naming what could not be started or created
     */
    void start() throws Exception;

    /** @return the sink's {@code load-url} ({@code host:port;host:port}) */
    String loadUrl();

    /** @return the sink's {@code jdbc-url}, or {@code null} for none (no probe) */
    String jdbcUrl();

    /** @return the user the sink loads as */
    String username();

    /** @return that user's password */
    String password();

    /** @return further sink options this server needs (docs/options.md); empty for StarRocks */
    Map<String, String> sinkProperties();

    /**
     * The server family, which picks the job's sink ({@code PipelineConfig#target()}) and what the demo can require:
     * {@link Target#STARROCKS} loads each source transaction into all its tables atomically, so the cross-table
     * invariants must hold on every snapshot; {@link Target#DORIS} is exactly-once per table, so they are
     * counted and reported as informational.
     *
     * @return the target family; {@link Target#STARROCKS} unless overridden
     */
    default Target sinkTarget() {
        return Target.STARROCKS;
    }

    /**
     * Reads all four shop tables in one consistent snapshot (one read transaction, or one statement), so that
     * a state between two committed transactions is never mixed with a later one.
     *
     * @return the committed content of the shop tables
     * @throws RuntimeException naming the query that failed
     */
    ShopState snapshot();

    /** Stops the server this target started (a no-op for an external one). */
    @Override
    void close();
}
