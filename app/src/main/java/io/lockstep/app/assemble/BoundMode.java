package io.lockstep.app.assemble;

/** What happens to a source transaction that grows beyond the size bound or stays open beyond the time bound. */
public enum BoundMode {
    /** Fail the job with a message naming the transaction, its partition and the bound (the default). */
    FAIL,
    /**
     * Emit the rows buffered so far as their own sink transaction (the last with {@code transactionEnd})
     * and keep assembling the rest; a WARN names the transaction. The source transaction is then no
     * longer atomic in StarRocks, but nothing is lost.
     */
    EMIT
}
