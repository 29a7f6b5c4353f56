package io.lockstep.core.restart;

import io.lockstep.core.label.LabelGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a walk learns about one earlier run's shared labels ({@code <base><cycle>}, base
 * {@code {prefix}-{subtask}-{runId}-m}; {@link LabelGenerator#sharedLabel}): the last cycle known committed, the
 * highest cycle the server knows, and the labels found open (PREPARE/PREPARED). A run holds at most one shared
 * transaction open at a time, the last one it began, so only cycles after {@code lastCommittedCycle} are walked.
 *
 * <p>Mutable; confined to the thread that opens the subtask.
 */
public final class SharedLabelRun {
    private final String runId;
    private final String database;
    private final String base;
    private long lastCommittedCycle;
    private long highestSeenCycle;
    private final List<String> open = new ArrayList<>();

    /**
     * @param runId        the run's id (for messages)
     * @param database     the database of its shared transactions (labels are scoped per database)
     * @param base         its label base, {@code {prefix}-{subtask}-{runId}-m}
     *                     ({@link LabelGenerator#sharedLabelBase()})
     * @param settledCycle a cycle up to which every label of the run is finished (committed or aborted), 0 when none
     *                     is known; the walk starts after it
     */
    public SharedLabelRun(String runId, String database, String base, long settledCycle) {
        this.runId = Objects.requireNonNull(runId, "runId");
        this.database = Objects.requireNonNull(database, "database");
        this.base = Objects.requireNonNull(base, "base");
        if (!base.endsWith("-m")) {
            throw new IllegalArgumentException("shared label base '" + base + "' does not end with '-m'");
        }
        if (settledCycle < 0) {
            throw new IllegalArgumentException("settled cycle must be >= 0, was " + settledCycle);
        }
        this.lastCommittedCycle = settledCycle;
        this.highestSeenCycle = settledCycle;
    }

    /** The run's label of {@code cycle}. */
    public String label(long cycle) {
        return base + cycle;
    }

    public String runId() {
        return runId;
    }

    public String database() {
        return database;
    }

    /** The last cycle known committed (or the settled cycle the walk started from). */
    public long lastCommittedCycle() {
        return lastCommittedCycle;
    }

    /** The highest cycle the server knew during the walk (at least the settled cycle). */
    public long highestSeenCycle() {
        return highestSeenCycle;
    }

    /** Labels found open and not yet settled (a live view). */
    public List<String> open() {
        return open;
    }

    void committed(long cycle) {
        lastCommittedCycle = Math.max(lastCommittedCycle, cycle);
        seen(cycle);
    }

    void seen(long cycle) {
        highestSeenCycle = Math.max(highestSeenCycle, cycle);
    }

    @Override
    public String toString() {
        return "run " + runId + " (labels " + base + "*, database " + database + ", committed up to cycle "
                + lastCommittedCycle + ")";
    }
}
