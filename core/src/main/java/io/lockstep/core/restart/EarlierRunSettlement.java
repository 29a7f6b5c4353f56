package io.lockstep.core.restart;

import io.lockstep.core.client.TransactionException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a multi-table at-least-once subtask does at open after a restore, before its engine starts: every earlier run
 * handed to it from the restored state is walked after the cycle it had finished at the checkpoint, and the shared
 * transactions it left open are rolled back (docs/reliability.md#open-transactions-left-behind). Committed labels
 * are left as they are: at-least-once replays from the checkpoint anyway, so a commit after it only means the replay
 * re-applies those rows.
 *
 * <p>Which runs a subtask is handed is the sink's choice: every subtask of the previous attempt writes its run into
 * the state, and after a rescale the runs are spread over the new subtasks so that each one is settled by one of
 * them. A run whose database was not known at its checkpoint (no row written yet, {@code database-name = *}) cannot
 * be walked: it is named at INFO and what it left open ends with the server's timeout.
 *
 * <p>Runs on the thread that opens the subtask.
 */
public final class EarlierRunSettlement {
    private static final Logger LOG = LoggerFactory.getLogger(EarlierRunSettlement.class);

    private final SharedLabelWalk walk;

    /** @param walk the label walk; COMMITTED labels need not be awaited here */
    public EarlierRunSettlement(SharedLabelWalk walk) {
        this.walk = Objects.requireNonNull(walk, "walk");
    }

    /**
     * Walks the earlier runs and rolls back what they left open.
     *
     * @param earlier   the runs from the restored state (duplicates are settled once)
     * @param ownRunId  this run's id (never settled)
     * @param owner     who settles, for the log, e.g. "multi-table sink subtask 3"
     * @return the runs walked, with what each ended with
     * @throws TransactionException naming the label when a label state cannot be read or an open label cannot be
     *                              rolled back; the next open tries again
     */
    public List<SharedLabelRun> settle(List<MultiTableRunState> earlier, String ownRunId, String owner)
            throws TransactionException, InterruptedException {
        Map<String, MultiTableRunState> distinct = new LinkedHashMap<>();
        for (MultiTableRunState run : earlier) {
            if (!run.runId().equals(ownRunId)) {
                distinct.merge(run.labelBase(), run,
                        (a, b) -> a.settledCycle() <= b.settledCycle() && a.database() != null ? a : b);
            }
        }
        List<SharedLabelRun> walked = new ArrayList<>();
        int foundOpen = 0;
        for (MultiTableRunState state : distinct.values()) {
            SharedLabelRun run = state.toRun();
            if (run == null) {
                LOG.info("{}: earlier run {} of subtask {} had written no row at its checkpoint, so the database of "
                        + "its shared transactions is not known: what it left open ends with the server timeout",
                        owner, state.runId(), state.subtaskIndex());
                continue;
            }
            walk.walk(run);
            foundOpen += run.open().size();
            walk.rollBackOpen(run, owner);
            walked.add(run);
        }
        if (!distinct.isEmpty()) {
            LOG.info("{}: settled {} earlier run(s) after the restored checkpoint; {} shared transaction(s) found open "
                    + "were ended (rolled back, or committed by the dead run meanwhile)", owner, walked.size(),
                    foundOpen);
        }
        return walked;
    }
}
