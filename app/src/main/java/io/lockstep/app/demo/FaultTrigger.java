package io.lockstep.app.demo;

import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.SinkInput;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFilterFunction;
import org.apache.flink.api.common.state.CheckpointListener;

/**
 * Kills the task once, to show a restart from a checkpoint: on the first subtask where, at a row or a completed
 * checkpoint, at least {@code afterTransactions} source transaction ends passed and a checkpoint completed, it throws
 * {@link InjectedFault}; Flink then restarts the job from the last completed checkpoint. It fires once per
 * {@code token} in this JVM (the MiniCluster runs here), so the restarted task passes everything through.
 *
 * <p>Waiting for a completed checkpoint makes the kill land right after one, which is what a restart test needs:
 * everything before it is in the checkpoint, everything after it is replayed.
 *
 * <p>Threads: {@code filter} and {@code notifyCheckpointComplete} run on the task thread.
 */
public final class FaultTrigger extends RichFilterFunction<SinkInput> implements CheckpointListener {

    private static final long serialVersionUID = 1L;
    /** Tokens of triggers that fired in this JVM. */
    private static final Set<String> FIRED = ConcurrentHashMap.newKeySet();

    private final String token;
    private final long afterTransactions;
    private transient long transactionEnds;
    private transient boolean checkpointCompleted;
    private transient boolean armed;

    /**
     * @param token identifies this trigger (one per demo run)
     * @param afterTransactions source transactions a subtask lets through before it may fire (&gt;= 0)
     */
    public FaultTrigger(String token, long afterTransactions) {
        this.token = token;
        this.afterTransactions = afterTransactions;
    }

    /** @return true once the trigger named {@code token} fired in this JVM */
    public static boolean fired(String token) {
        return FIRED.contains(token);
    }

    @Override
    public void open(OpenContext openContext) {
        armed = !FIRED.contains(token);
    }

    @Override
    public boolean filter(SinkInput input) {
        if (armed && input instanceof LoadRow row && row.isTransactionEnd()) {
            transactionEnds++;
        }
        fireIfDue();
        return true;
    }

    /** A checkpoint completed: fires here too, so the kill happens even when no row follows. */
    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        checkpointCompleted = true;
        fireIfDue();
    }

    private void fireIfDue() {
        if (armed && transactionEnds >= afterTransactions && checkpointCompleted && FIRED.add(token)) {
            throw new InjectedFault("demo fault trigger: killing the task after " + transactionEnds
                    + " source transactions on subtask " + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask()
                    + "; the job restarts from its last checkpoint");
        }
    }

    /** The failure the trigger throws. */
    public static final class InjectedFault extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InjectedFault(String message) {
            super(message);
        }
    }
}
