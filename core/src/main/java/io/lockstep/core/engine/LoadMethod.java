package io.lockstep.core.engine;

/** How the single-table engine sends a table's rows (docs/protocol.md#starrocks-transaction-stream-load;
 * modes: docs/protocol.md#what-the-official-starrocks-connector-does). */
public enum LoadMethod {
    /** Transaction stream load: begin, loads, prepare, commit per table and flush. */
    TRANSACTION,
    /**
     * Classic stream load: one {@code _stream_load} request per table and flush, carrying all of that table's buffered
     * rows under a fresh label (docs/protocol.md#starrocks-transaction-stream-load). At-least-once only.
     */
    CLASSIC,
    /**
     * One load per transaction, held pre-committed (Apache Doris stream load with {@code two_phase_commit: true},
     * docs/protocol.md#doris-states-labels-and-timers). Exactly-once only: nothing loads until a cut (memory pressure
     * or the checkpoint barrier); then each table's rows up to the cut go out as ONE load, its own transaction, under
     * the label {@code {prefix}-{table}-{subtask}-{runId}-{checkpoint}_{flush}}. The load itself pre-commits, so no
     * prepare is sent; the barrier hands out every transaction of the epoch for Flink state, and commits go by label.
     */
    TWO_PHASE_STREAM_LOAD
}
