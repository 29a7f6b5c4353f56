package io.lockstep.core.engine;

/** Delivery guarantee of the single-table engine ({@code sink.semantic}). */
public enum DeliverySemantic {
    /** Each flush (timer or checkpoint) prepares and commits its own per-table transactions. */
    AT_LEAST_ONCE,
    /** Transactions are prepared at a checkpoint and committed by label after it completes (2PC with Flink). */
    EXACTLY_ONCE
}
