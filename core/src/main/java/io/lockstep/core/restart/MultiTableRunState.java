package io.lockstep.core.restart;

import io.lockstep.core.label.LabelGenerator;
import java.util.Objects;
import javax.annotation.Nullable;

/**
 * What a multi-table at-least-once subtask keeps in Flink state at a checkpoint so that a later run can find the
 * shared transactions it leaves open after it (docs/reliability.md#open-transactions-left-behind): the run's label
 * prefix, subtask index and run id (together its label base {@code {prefix}-{subtask}-{runId}-m}), the database of its
 * shared transactions, and the cycle up to which its labels were finished when the checkpoint was taken (the
 * checkpoint's flush committed every label up to it).
 *
 * <p>Stored as one string, {@link #encode()}: {@code 1/<prefix>/<subtask>/<runId>/<database>/<settledCycle>}
 * (version 1; the database is empty when the run had written no row yet). Immutable.
 *
 * @param labelPrefix  the run's label prefix ({@code sink.label-prefix})
 * @param subtaskIndex the run's subtask index
 * @param runId        the run's id
 * @param database     the database of its shared transactions, or null when not known yet (no row written with
 *                     {@code database-name = *}): such a run cannot be walked
 * @param settledCycle every label of the run up to this cycle was finished (0: none begun)
 */
public record MultiTableRunState(String labelPrefix, int subtaskIndex, String runId, @Nullable String database,
                                 long settledCycle) {
    private static final String VERSION = "1";
    private static final char SEPARATOR = '/';

    /** @throws IllegalArgumentException naming the bad value */
    public MultiTableRunState {
        new LabelGenerator(labelPrefix, subtaskIndex, runId); // validates prefix, index and run id
        if (database != null && (database.isEmpty() || database.indexOf(SEPARATOR) >= 0)) {
            throw new IllegalArgumentException("database '" + database + "' cannot be kept in multi-table sink state "
                    + "(empty or containing '" + SEPARATOR + "')");
        }
        if (settledCycle < 0) {
            throw new IllegalArgumentException("settled cycle must be >= 0, was " + settledCycle);
        }
    }

    /** The run's label base, {@code {prefix}-{subtask}-{runId}-m}. */
    public String labelBase() {
        return new LabelGenerator(labelPrefix, subtaskIndex, runId).sharedLabelBase();
    }

    /** The walk state of this run, or null when its database is not known. */
    @Nullable
    public SharedLabelRun toRun() {
        return database == null ? null : new SharedLabelRun(runId, database, labelBase(), settledCycle);
    }

    /** The state string (see the class comment). */
    public String encode() {
        return VERSION + SEPARATOR + labelPrefix + SEPARATOR + subtaskIndex + SEPARATOR + runId + SEPARATOR
                + (database == null ? "" : database) + SEPARATOR + settledCycle;
    }

    /**
     * Reads a state string written by {@link #encode()}.
     *
     * @throws IllegalArgumentException quoting the string when it is not version 1 or malformed
     */
    public static MultiTableRunState decode(String encoded) {
        Objects.requireNonNull(encoded, "encoded");
        String[] parts = encoded.split(String.valueOf(SEPARATOR), -1);
        if (parts.length != 6 || !parts[0].equals(VERSION)) {
            throw new IllegalArgumentException("multi-table sink state entry '" + encoded + "' is not version "
                    + VERSION + " (" + VERSION + "/prefix/subtask/runId/database/cycle); restore with the Lockstep "
                    + "release that wrote it, or start without state");
        }
        try {
            return new MultiTableRunState(parts[1], Integer.parseInt(parts[2]), parts[3],
                    parts[4].isEmpty() ? null : parts[4], Long.parseLong(parts[5]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("multi-table sink state entry '" + encoded + "' has a malformed "
                    + "subtask index or cycle", e);
        }
    }
}
