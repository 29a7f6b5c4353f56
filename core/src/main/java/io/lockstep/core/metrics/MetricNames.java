package io.lockstep.core.metrics;

/** The names the core reports under; units are in the names. */
public final class MetricNames {
    private MetricNames() {
    }

    /** Table counter: successful load requests. */
    public static final String LOADS = "loads";
    /** Table counter: bytes sent in successful loads. */
    public static final String LOADED_BYTES = "loadedBytes";
    /** Table counter: rows sent in successful loads. */
    public static final String LOADED_ROWS = "loadedRows";
    /** Counter: transactions committed (a multi-table commit counts once). */
    public static final String COMMITS = "commits";
    /**
     * Counter, multi-table mode: source transactions (rows up to a {@code transactionEnd}) whose rows a commit made
     * visible; an empty source transaction counts at the commit after its end.
     */
    public static final String SOURCE_TRANSACTIONS_COMMITTED = "sourceTransactionsCommitted";
    /**
     * Counter, multi-table mode: rows of the job's tables a commit made visible (rows loaded under a shared transaction
     * that was rolled back, and the progress table's rows, are not counted).
     */
    public static final String COMMITTED_ROWS = "committedRows";
    /**
     * Counter, multi-table exactly-once mode: source transactions dropped because their position is at or below the
     * committed position of their source partition (a replay after a restart).
     */
    public static final String SOURCE_TRANSACTIONS_SKIPPED = "sourceTransactionsSkipped";
    /**
     * Counter, multi-table exactly-once mode: shared transactions of earlier runs settled at open (rolled back, or
     * waited for until visible).
     */
    public static final String SETTLED_TRANSACTIONS = "settledTransactions";
    /** Counter: transactions rolled back. */
    public static final String ROLLBACKS = "rollbacks";
    /** Histogram: commit call latency, ms. */
    public static final String COMMIT_LATENCY_MS = "commitLatencyMs";
    /** Counter prefix: retries, suffixed by the retry class, e.g. {@code retries.TXN_IN_PROCESSING}. */
    public static final String RETRIES_PREFIX = "retries.";
    /**
     * Counter: milliseconds begins spent waiting for a slot under the server's running-transaction limit
     * ({@code max_running_txn_num_per_db}); each refused begin also counts under {@code retries.RUNNING_TXN_LIMIT}.
     */
    public static final String RUNNING_TXN_LIMIT_WAIT_MS = "runningTxnLimitWaitMs";
    /** Gauge: bytes buffered in all regions. */
    public static final String BUFFERED_BYTES = "bufferedBytes";
    /** Gauge: server transactions currently open. */
    public static final String OPEN_TRANSACTIONS = "openTransactions";
}
