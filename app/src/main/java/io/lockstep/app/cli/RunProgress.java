package io.lockstep.app.cli;

import io.lockstep.app.assemble.CommittedSourcePositions;
import io.lockstep.app.assemble.TransactionAssembler;
import io.lockstep.app.demo.Counts;
import io.lockstep.app.demo.JobMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.core.server.Target;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * The lines {@code lockstep run} prints about a running job, from the engine's own metrics (the same counters
 * as the demo's progress line, {@code docs/sinks.md}): source transactions the assemblers rebuilt, source
 * transactions and rows a commit made visible (Doris: rows sent), target transactions committed, the job's restarts.
 *
 * <p>Not thread-safe: one thread (the progress ticker, then the thread that prints the summary after the
 * ticker stopped) calls it at a time; the rate is measured between two {@link #line()} calls.
 */
final class RunProgress {

    /**
     * How the run ended, which says what became of the source transactions read but neither committed nor skipped:
     * a stop or a failure rolls the open transaction back; a run that did not stop in time leaves it open (the
     * server times it out); at the end of input everything loaded was committed, so the rest had no rows to load
     * (every row of an unknown table skipped, or an empty source transaction).
     */
    enum Ending {
        /** The input ended (bounded). */
        END_OF_INPUT("without rows to load", "; end of input"),
        /** Ctrl-C or SIGTERM. */
        STOPPED("rolled back", "; stopped by signal"),
        /** The job failed. */
        FAILED("rolled back", "; failed"),
        /** A signal asked it to stop and it did not within the stop timeout. */
        NOT_STOPPED_IN_TIME("left pending (the server times them out)", "; not stopped in time");

        private final String rest;
        private final String suffix;

        Ending(String rest, String suffix) {
            this.rest = rest;
            this.suffix = suffix;
        }
    }

    /** Sums a counter of the job by name (live and retired, {@link JobMetrics#counter}). */
    private final ToLongFunction<String> counters;
    /** The largest live gauge of a name, -1 without one ({@link JobMetrics#gaugeMax}). */
    private final ToLongFunction<String> gauges;
    private final Target target;
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
    RunProgress(JobMetrics metrics, Target target, LongSupplier nanoTime) {
        this(metrics::counter, metrics::gaugeMax, target, nanoTime);
    }

    /**
     * @param counters a counter's sum by name
     * @param gauges the largest gauge by name, -1 when there is none
     * @param target the server family (Doris counts no committed source transactions)
     * @param nanoTime the clock
     */
    RunProgress(ToLongFunction<String> counters, ToLongFunction<String> gauges, Target target,
            LongSupplier nanoTime) {
        this.counters = counters;
        this.gauges = gauges;
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
        long resent = counters.applyAsLong(CommittedSourcePositions.RESENT_METRIC);
        return String.format(Locale.ROOT, "[%6.1fs] read %,d%s | %s | %,.0f rows/s | restarts %d",
                (now - startNanos) / 1e9, counters.applyAsLong(TransactionAssembler.SOURCE_TRANSACTIONS_METRIC),
                resent > 0 ? String.format(Locale.ROOT, " | re-sent dropped %,d", resent) : "",
                commits(), rowsPerSecond, restarts());
    }

    /**
     * @param ending how the run ended
     * @return e.g. {@code 12 source transactions read, 2 skipped as committed by an earlier run, 9 committed, 1 rolled
     *     back, 340 rows committed, 4 StarRocks transactions, 0 restarts in 12.3 s; stopped by signal}. On StarRocks
     *     the source transactions read add up: skipped as committed by an earlier run (exactly-once: a file loaded
     *     again, a replay; named when there were any) + committed + the rest, named by what {@code ending} made of
     *     them ({@link Ending}; named when there were any). The rows are those a commit made visible in the job's
     *     tables (not the progress table's, not those of a transaction rolled back); on Doris, whose commits follow
     *     checkpoints and which counts no committed source transactions, {@code rows sent} (loaded into
     *     transactions, committed or not). Dead letters written and rows of unknown tables skipped are named when
     *     there were any (a dead-lettered transaction is not among those read); so are source transactions a
     *     restarted connector sent again and the assembler dropped by their source commit position (not among those
     *     read either).
     */
    String summary(Ending ending) {
        long now = nanoTime.getAsLong();
        long read = counters.applyAsLong(TransactionAssembler.SOURCE_TRANSACTIONS_METRIC);
        long alreadyCommitted = counters.applyAsLong(MetricNames.SOURCE_TRANSACTIONS_SKIPPED);
        long committedCount = counters.applyAsLong(MetricNames.SOURCE_TRANSACTIONS_COMMITTED);
        // a replay after a restart reads a transaction again: each read ends committed, skipped or in the rest
        long rest = read - alreadyCommitted - committedCount;
        String committed = !target.hasMultiTableTransactions() ? ""
                : (alreadyCommitted > 0 ? String.format(Locale.ROOT, ", %,d skipped as committed by an earlier run",
                        alreadyCommitted) : "")
                + String.format(Locale.ROOT, ", %,d committed", committedCount)
                + (rest > 0 ? String.format(Locale.ROOT, ", %,d %s", rest, ending.rest) : "");
        long deadLetters = counters.applyAsLong(TransactionAssembler.DEAD_LETTERS_METRIC);
        long skipped = counters.applyAsLong(TransactionAssembler.SKIPPED_ROWS_METRIC);
        String badInput = (deadLetters > 0 ? ", " + Counts.of(deadLetters, "dead letter") : "")
                + (skipped > 0 ? ", " + Counts.of(skipped, "row") + " of unknown tables skipped" : "");
        long resent = counters.applyAsLong(CommittedSourcePositions.RESENT_METRIC);
        String resends = resent == 0 ? "" : ", " + Counts.of(resent, "source transaction") + " re-sent by the "
                + "connector dropped (already loaded: same source commit position)";
        return String.format(Locale.ROOT, "%s read%s%s, %s %s, %s%s, %s in %.1f s%s",
                Counts.of(read, "source transaction"), resends,
                committed, Counts.of(rows(), "row"), target.hasMultiTableTransactions() ? "committed" : "sent",
                Counts.of(counters.applyAsLong(MetricNames.COMMITS), targetName() + " transaction"), badInput,
                Counts.of(restarts(), "restart"), (now - startNanos) / 1e9, ending.suffix);
    }

    /** @return rows committed to the job's tables (StarRocks), or rows sent in loads (Doris) */
    private long rows() {
        return counters.applyAsLong(target.hasMultiTableTransactions() ? MetricNames.COMMITTED_ROWS
                : MetricNames.LOADED_ROWS);
    }

    private String commits() {
        if (!target.hasMultiTableTransactions()) { // the per-table sink counts no committed source transactions
            return String.format(Locale.ROOT, "%s txns %,d", targetName(), counters.applyAsLong(MetricNames.COMMITS));
        }
        return String.format(Locale.ROOT, "committed %,d | " + targetName() + " txns %,d",
                counters.applyAsLong(MetricNames.SOURCE_TRANSACTIONS_COMMITTED), counters.applyAsLong(MetricNames.COMMITS));
    }

    private String targetName() {
        return target.displayName();
    }

    /** Reads the job's restart count while its gauge exists; call it about once a second while the job runs. */
    void observe() {
        restarts();
    }

    private long restarts() {
        restartsSeen = Math.max(restartsSeen, gauges.applyAsLong("numRestarts"));
        return restartsSeen;
    }
}
