package io.lockstep.app.demo;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The outcome of a {@link ShopDemo} run and its verification table.
 *
 * @param written source transactions the generator wrote
 * @param read source transactions the assemblers emitted (replays after a restart count again)
 * @param committed source transactions the sink committed (the engine's counter)
 * @param starRocksTransactions StarRocks transactions the sink committed
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
 */
public record DemoResult(long written, long read, long committed, long starRocksTransactions, long loadedRows,
        long restarts, boolean restoredFromCheckpoint, boolean faultRequested, boolean faultFired, String jobFailure, boolean converged,
        long snapshots, long readErrors, String firstReadError, Map<String, Long> violationsByInvariant,
        List<String> describedViolations, ShopState expected, ShopState actual, long elapsedMs) {

    /** @return the total of violations over all invariants and snapshots */
    public long violations() {
        return violationsByInvariant.values().stream().mapToLong(Long::longValue).sum();
    }

    /** @return differences between the final tables and the expected state (up to 10), empty when equal */
    public List<String> differences() {
        return actual.differences(expected, 10);
    }

    /** @return true when every check of the verification table passed */
    public boolean allGreen() {
        return checks().stream().allMatch(Check::ok);
    }

    /** One line of the verification table. */
    record Check(String name, boolean ok, String detail) {
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
        checks.add(new Check("snapshots read, 100 ms apart", snapshots > 0 && readErrors == 0,
                snapshots + " snapshots, " + readErrors + " read errors"
                        + (firstReadError == null ? "" : " (first: " + firstReadError + ")")));
        for (Map.Entry<String, Long> invariant : violationsByInvariant.entrySet()) {
            checks.add(new Check("invariant: " + invariant.getKey(), invariant.getValue() == 0,
                    invariant.getValue() + " violations in " + snapshots + " snapshots"));
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
        out.printf(Locale.ROOT, "Verification (%.1f s): %,d source transactions written, %,d read, %,d committed "
                + "in %,d StarRocks transactions, %,d rows loaded%n", elapsedMs / 1000.0, written, read, committed,
                starRocksTransactions, loadedRows);
        String format = "  %-52s %-5s %s%n";
        out.printf(Locale.ROOT, format, "check", "", "detail");
        for (Check check : checks()) {
            out.printf(Locale.ROOT, format, check.name(), check.ok() ? "OK" : "FAIL", check.detail());
        }
        for (String difference : differences()) {
            out.println("  difference: " + difference);
        }
        for (String violation : describedViolations) {
            out.println("  violation: " + violation);
        }
        out.println(allGreen() ? "ALL GREEN" : "FAILED");
    }
}
