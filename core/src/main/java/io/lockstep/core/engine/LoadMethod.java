package io.lockstep.core.engine;

/** How the single-table engine sends a table's rows (reference §1.1 route table, §6.3 modes). */
public enum LoadMethod {
    /** Transaction stream load: begin, loads, prepare, commit per table and flush. */
    TRANSACTION,
    /**
     * Classic stream load: one {@code _stream_load} request per table and flush, carrying all of that table's
     * buffered rows under a fresh label (reference §1.1). At-least-once only.
     */
    CLASSIC
}
