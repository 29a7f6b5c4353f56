package io.lockstep.app.demo;

import java.util.Locale;

/**
 * Settings of one {@link ShopDemo} run. Immutable.
 *
 * @param trafficMs how long the generator writes, in ms (&gt; 0)
 * @param transactionsPerSecond the generator's rate (&gt; 0); the whole run writes at most
 *     {@value #MAX_TRANSACTIONS} transactions
 * @param partitions partitions of the CDC topic (&gt; 0)
 * @param parallelism parallelism of the job (&gt; 0)
 * @param seed the workload's random seed
 * @param checkpointIntervalMs Flink checkpoint interval in ms; the sink commits at every checkpoint
 * @param commitIntervalMs the sink's commit interval in ms (commits between checkpoints)
 * @param killAfterTransactions kill the task once after this many source transactions on a subtask and a
 *     completed checkpoint ({@link FaultTrigger}); -1: never, other values must be &gt; 0
 * @param drainTimeoutMs longest wait in ms, after the generator stops, for the tables to reach the expected state
 * @param snapshotPeriodMs pause in ms between two snapshot reads
 */
public record DemoConfig(long trafficMs, double transactionsPerSecond, int partitions, int parallelism, long seed,
        long checkpointIntervalMs, long commitIntervalMs, long killAfterTransactions, long drainTimeoutMs,
        long snapshotPeriodMs) {

    /** Default traffic: 45 s. */
    public static final long DEFAULT_TRAFFIC_MS = 45_000L;
    /** Most source transactions one run may write (the demo keeps a send time per transaction). */
    public static final long MAX_TRANSACTIONS = 5_000_000L;
    /** Default rate: 40 source transactions per second. */
    public static final double DEFAULT_RATE = 40;

    /** @throws IllegalArgumentException naming the setting that is out of range */
    public DemoConfig {
        if (trafficMs <= 0) {
            throw new IllegalArgumentException("traffic duration must be positive, got " + trafficMs + " ms");
        }
        if (!(transactionsPerSecond > 0)) {
            throw new IllegalArgumentException("rate must be positive, got " + transactionsPerSecond);
        }
        double total = transactionsPerSecond * trafficMs / 1000.0;
        if (total > MAX_TRANSACTIONS) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "rate %.0f/s for %d s would write %.0f transactions; the demo writes at most %,d (lower --rate "
                            + "or --duration)", transactionsPerSecond, trafficMs / 1000, total, MAX_TRANSACTIONS));
        }
        if (killAfterTransactions == 0 || killAfterTransactions < -1) {
            throw new IllegalArgumentException("kill-task-after must be a positive number of transactions, got "
                    + killAfterTransactions);
        }
        if (partitions <= 0 || parallelism <= 0) {
            throw new IllegalArgumentException("partitions and parallelism must be positive, got " + partitions
                    + " and " + parallelism);
        }
        if (checkpointIntervalMs <= 0 || commitIntervalMs <= 0 || drainTimeoutMs <= 0 || snapshotPeriodMs <= 0) {
            throw new IllegalArgumentException("intervals and timeouts must be positive");
        }
    }

    /**
     * The default run: 45 s at 40 transactions/s on 2 partitions, parallelism 2, checkpoints every second, the
     * sink's timer every 10 s (so commits mostly happen at checkpoints), no fault, 60 s to drain, a snapshot
     * every 100 ms.
     */
    public static DemoConfig defaults() {
        return new DemoConfig(DEFAULT_TRAFFIC_MS, DEFAULT_RATE, 2, 2, 2026, 1_000L, 10_000L, -1, 60_000L, 100L);
    }
}
