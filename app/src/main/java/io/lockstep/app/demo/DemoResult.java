package io.lockstep.app.demo;

import io.lockstep.core.server.Target;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The outcome of a {@link ShopDemo} run and its verification table. What is required depends on the target's
 * guarantee: on StarRocks (multi-table transactions) every invariant must hold on every snapshot; on Apache Doris
 * (exactly-once per table, tables commit one after the other) the cross-table invariants ({@link ShopInvariants},
 * all three span orders and items) are counted and shown as informational rows ({@code INFO}) that do not decide
 * the verdict. The final tables must equal the expected state row by row on every target.
 *
 * @param written source transactions the generator wrote
 * @param read source transactions the assemblers emitted (replays after a restart count again)
 * @param committed source transactions the sink committed (the multi-table engine's counter; the per-table
 *     Doris sink does not count them, so it is not shown for Doris)
 * @param starRocksTransactions server transactions the sink committed (StarRocks or Doris)
 * @param loadedRows rows the sink loaded
 * @param restarts job restarts Flink reported
 * @param restoredFromCheckpoint whether Flink reported restoring the job from a checkpoint
 * @param faultRequested whether the run asked for a task kill
 * @param faultFired whether the kill happened
 * @param jobFailure the job's failure as one line, or {@code null} when it ran until cancelled
 * @param converged whether a snapshot equal to the expected final state was read before the drain timeout
 * @param snapshots snapshots read and checked
 * @param readErrors failed snapshot reads
 * @param firstReadError the first failed read's message, or {@code null}
 * @param violationsByInvariant violations per invariant over all snapshots
 * @param describedViolations the first violations, described
 * @param expected the generator's expected final state
 * @param actual the final snapshot of the tables
 * @param elapsedMs the run's wall time in ms, start-up included
 * @param target the server family loaded, which decides whether the cross-table invariants are required
 */
public record DemoResult(long written, long read, long committed, long starRocksTransactions, long loadedRows,
        long restarts, boolean restoredFromCheckpoint, boolean faultRequested, boolean faultFired, String jobFailure, boolean converged,
        long snapshots, long readErrors, String firstReadError, Map<String, Long> violationsByInvariant,
        List<String> describedViolations, ShopState expected, ShopState actual, long elapsedMs,
        Target target) {

    /** Informational violations printed at most (all are counted). */
    static final int MAX_INFORMATIONAL_DESCRIBED = 3;

    /** A StarRocks run ({@link Target#STARROCKS}); the parameters as in the canonical constructor. */
    public DemoResult(long written, long read, long committed, long starRocksTransactions, long loadedRows,
            long restarts, boolean restoredFromCheckpoint, boolean faultRequested, boolean faultFired,
            String jobFailure, boolean converged, long snapshots, long readErrors, String firstReadError,
            Map<String, Long> violationsByInvariant, List<String> describedViolations, ShopState expected,
            ShopState actual, long elapsedMs) {
        this(written, read, committed, starRocksTransactions, loadedRows, restarts, restoredFromCheckpoint,
                faultRequested, faultFired, jobFailure, converged, snapshots, readErrors, firstReadError,
                violationsByInvariant, describedViolations, expected, actual, elapsedMs, Target.STARROCKS);
    }

    /**
     * @return true when the sink makes each source transaction visible in all its tables at once (StarRocks), so
     *     the cross-table invariants are required; false for the per-table Doris sink (informational)
     */
    public boolean crossTableInvariantsRequired() {
        return target.hasMultiTableTransactions();
    }

    /** @return the server's name as the table prints it: {@code StarRocks} or {@code Doris} */
    public String serverName() {
        return serverName(target);
    }

    /** @return {@code StarRocks} or {@code Doris} */
    static String serverName(Target target) {
        return target.displayName();
    }

    /** @return the total of violations over all invariants and snapshots (required or informational) */
    public long violations() {
        return violationsByInvariant.values().stream().mapToLong(Long::longValue).sum();
    }

    /** @return differences between the final tables and the expected state (up to 10), empty when equal */
    public List<String> differences() {
        return actual.differences(expected, 10);
    }

    /** @return true when every required check of the verification table passed (informational rows aside) */
    public boolean allGreen() {
        return checks().stream().allMatch(check -> check.informational() || check.ok());
    }

    /**
     * One line of the verification table.
     *
     * @param informational true for a row that is reported but does not decide the verdict (printed {@code INFO})
     */
    record Check(String name, boolean ok, String detail, boolean informational) {
        Check(String name, boolean ok, String detail) {
            this(name, ok, detail, false);
        }

        String status() {
            return informational ? "INFO" : ok ? "OK" : "FAIL";
        }
    }

    List<Check> checks() {
        List<Check> checks = new ArrayList<>();
        checks.add(new Check("job ran until stopped", jobFailure == null,
                jobFailure == null ? "no terminal failure" : jobFailure));
        if (faultRequested) {
            checks.add(new Check("task killed, restored from checkpoint",
                    faultFired && restarts >= 1 && restoredFromCheckpoint, "fault fired: " + faultFired
                            + ", restarts: " + restarts + ", restored from a checkpoint: " + restoredFromCheckpoint));
        }
        checks.add(new Check("snapshots read, 100 ms pause between reads", snapshots > 0 && readErrors == 0,
                snapshots + " snapshots, " + readErrors + " read errors"
                        + (firstReadError == null ? "" : " (first: " + firstReadError + ")")));
        boolean required = crossTableInvariantsRequired();
        for (Map.Entry<String, Long> invariant : violationsByInvariant.entrySet()) {
            String detail = invariant.getValue() + " violations in " + snapshots + " snapshots";
            checks.add(required
                    ? new Check("invariant: " + invariant.getKey(), invariant.getValue() == 0, detail)
                    : new Check("invariant: " + invariant.getKey() + " (info)", invariant.getValue() == 0, detail
                            + "; not required: " + serverName() + " commits each table on its own", true));
        }
        List<String> differences = differences();
        long rows = 0;
        for (ShopSchema.Table table : ShopSchema.TABLES) {
            rows += expected.rowCount(table);
        }
        checks.add(new Check("final tables = generator's expected state", converged && differences.isEmpty(),
                differences.isEmpty() ? "row by row, " + rows + " rows" : differences.size()
                        + " differences shown below"));
        for (ShopSchema.Table table : ShopSchema.TABLES) {
            int actualRows = actual.rowCount(table);
            int expectedRows = expected.rowCount(table);
            checks.add(new Check("  rows in " + ShopSchema.DATABASE + "." + table.name(), actualRows == expectedRows,
                    actualRows + " (expected " + expectedRows + ")"));
        }
        return checks;
    }

    /** Prints the verification table, the differences and violations if any, and the verdict. */
    public void print(PrintStream out) {
        out.println();
        if (crossTableInvariantsRequired()) {
            out.printf(Locale.ROOT, "Verification (%.1f s): %s written, %,d read, %,d committed in %s, %s loaded%n",
                    elapsedMs / 1000.0, Counts.of(written, "source transaction"), read, committed,
                    Counts.of(starRocksTransactions, serverName() + " transaction"), Counts.of(loadedRows, "row"));
        } else {
            out.printf(Locale.ROOT, "Verification (%.1f s): %s written, %,d read, %s committed (exactly-once per "
                    + "table), %s loaded%n", elapsedMs / 1000.0, Counts.of(written, "source transaction"), read,
                    Counts.of(starRocksTransactions, serverName() + " transaction"), Counts.of(loadedRows, "row"));
        }
        String format = "  %-58s %-5s %s%n";
        out.printf(Locale.ROOT, format, "check", "", "detail");
        for (Check check : checks()) {
            out.printf(Locale.ROOT, format, check.name(), check.status(), check.detail());
        }
        for (String difference : differences()) {
            out.println("  difference: " + difference);
        }
        if (crossTableInvariantsRequired()) {
            for (String violation : describedViolations) {
                out.println("  violation: " + violation);
            }
        } else { // expected on a per-table target: a few examples, not a wall of them
            describedViolations.stream().limit(MAX_INFORMATIONAL_DESCRIBED)
                    .forEach(violation -> out.println("  violation (info): " + violation));
        }
        out.println(allGreen() ? "ALL GREEN" : "FAILED");
    }
}
