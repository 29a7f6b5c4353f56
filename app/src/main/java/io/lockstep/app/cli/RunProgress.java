package io.lockstep.app.cli;

import io.lockstep.app.assemble.TransactionAssembler;
import io.lockstep.app.demo.Counts;
import io.lockstep.app.demo.JobMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.flink.options.SinkTarget;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The lines {@code lockstep run} prints about a running job, from the engine's own metrics (the same counters
 * as the demo's progress line, {@code docs/sinks.md}): source transactions the assemblers rebuilt, source
 * transactions and rows a commit made visible (Doris: rows sent), target transactions committed, the job's restarts.
 *
 * <p>Not thread-safe: one thread (the progress ticker, then the thread that prints the summary after the
 * ticker stopped) calls it at a time; the rate is measured between two {@link #line()} calls.
 */
final class RunProgress {
    private final JobMetrics metrics;
    private final SinkTarget target;
    private final LongSupplier nanoTime;
    private final long startNanos;
    private long lastRows;
    private long lastNanos;
    /** The most restarts seen: Flink removes the job's {@code numRestarts} gauge when the job ends. */
    private long restartsSeen;

    /**
     * @param metrics the job's metrics
     * @param target the server family (Doris counts no committed source transactions)
     * @param nanoTime the clock, {@code System::nanoTime} outside tests
     */
    RunProgress(JobMetrics metrics, SinkTarget target, LongSupplier nanoTime) {
        this.metrics = metrics;
        this.target = target;
        this.nanoTime = nanoTime;
        this.startNanos = nanoTime.getAsLong();
        this.lastNanos = startNanos;
    }

    /**
     * @return e.g. {@code [  10.0s] read 511 | committed 505 | StarRocks txns 20 | 807 rows/s | restarts 0}; the rate
     *     is of rows committed to the job's tables since the last line (Doris: rows sent)
     */
    String line() {
        long now = nanoTime.getAsLong();
        long rows = rows();
        double rowsPerSecond = (rows - lastRows) / Math.max(1e-3, (now - lastNanos) / 1e9);
        lastRows = rows;
        lastNanos = now;
        return String.format(Locale.ROOT, "[%6.1fs] read %,d | %s | %,.0f rows/s | restarts %d",
                (now - startNanos) / 1e9, metrics.counter(TransactionAssembler.SOURCE_TRANSACTIONS_METRIC),
                commits(), rowsPerSecond, restarts());
    }

    /**
     * @return e.g. {@code 12 source transactions read, 12 committed, 340 rows committed, 4 StarRocks transactions, 0
     *     restarts in 12.3 s}; the rows are those a commit made visible in the job's tables (not the progress table's,
     *     not those of a transaction rolled back); on Doris, whose commits follow checkpoints, {@code rows sent}
     *     (loaded into transactions, committed or not). Dead letters written and rows of unknown tables skipped are
     *     named when there were any; in the exactly-once mode, when the run met source transactions an earlier run had
     *     committed (a file loaded again, a replay), {@code 12 source transactions read, 12 skipped as committed by an
     *     earlier run, 0 committed, ...}
     */
    String summary() {
        long now = nanoTime.getAsLong();
        long alreadyCommitted = metrics.counter(MetricNames.SOURCE_TRANSACTIONS_SKIPPED);
        String committed = target == SinkTarget.DORIS ? ""
                : (alreadyCommitted > 0 ? String.format(Locale.ROOT, ", %,d skipped as committed by an earlier run",
                        alreadyCommitted) : "")
                + String.format(Locale.ROOT, ", %,d committed", metrics.counter(MetricNames.SOURCE_TRANSACTIONS_COMMITTED));
        long deadLetters = metrics.counter(TransactionAssembler.DEAD_LETTERS_METRIC);
        long skipped = metrics.counter(TransactionAssembler.SKIPPED_ROWS_METRIC);
        String badInput = (deadLetters > 0 ? ", " + Counts.of(deadLetters, "dead letter") : "")
                + (skipped > 0 ? ", " + Counts.of(skipped, "row") + " of unknown tables skipped" : "");
        return String.format(Locale.ROOT, "%s read%s, %s %s, %s%s, %s in %.1f s",
                Counts.of(metrics.counter(TransactionAssembler.SOURCE_TRANSACTIONS_METRIC), "source transaction"),
                committed, Counts.of(rows(), "row"), target == SinkTarget.DORIS ? "sent" : "committed",
                Counts.of(metrics.counter(MetricNames.COMMITS), targetName() + " transaction"), badInput,
                Counts.of(restarts(), "restart"), (now - startNanos) / 1e9);
    }

    /** @return rows committed to the job's tables (StarRocks), or rows sent in loads (Doris) */
    private long rows() {
        return metrics.counter(target == SinkTarget.DORIS ? MetricNames.LOADED_ROWS : MetricNames.COMMITTED_ROWS);
    }

    private String commits() {
        if (target == SinkTarget.DORIS) {
            return String.format(Locale.ROOT, "Doris txns %,d", metrics.counter(MetricNames.COMMITS));
        }
        return String.format(Locale.ROOT, "committed %,d | StarRocks txns %,d",
                metrics.counter(MetricNames.SOURCE_TRANSACTIONS_COMMITTED), metrics.counter(MetricNames.COMMITS));
    }

    private String targetName() {
        return target == SinkTarget.DORIS ? "Doris" : "StarRocks";
    }

    /** Reads the job's restart count while its gauge exists; call it about once a second while the job runs. */
    void observe() {
        restarts();
    }

    private long restarts() {
        restartsSeen = Math.max(restartsSeen, metrics.gaugeMax("numRestarts"));
        return restartsSeen;
    }
}
