package io.lockstep.flink.sink.v2;

import io.lockstep.flink.config.SinkConfig;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.engine.SingleTableLoadEngine;
import io.lockstep.core.restart.CheckpointedTransaction;
import io.lockstep.core.restart.RunIdClaim;
import io.lockstep.core.restart.LingeringTransactionAborter;
import io.lockstep.flink.sink.EngineFailureWatch;
import io.lockstep.flink.sink.ExactlyOnceSinkState;
import io.lockstep.flink.sink.ExactlyOnceSubtask;
import io.lockstep.flink.sink.RowRouting;
import io.lockstep.flink.sink.SinkSettings;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.annotation.concurrent.NotThreadSafe;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The writer of {@link ExactlyOnceSink}: one transaction per table and epoch, prepared before the checkpoint
 * barrier.
 *
 * <p><b>Epochs.</b> Sink V2 asks for the committables ({@link #prepareCommit}) before it tells the writer the
 * checkpoint id, so the writer numbers its own epochs: {@code 1, 2, ...} after a fresh start, and {@code n + 1, ...}
 * after a restore whose state recorded epoch {@code n}. {@code prepareCommit} prepares epoch {@code e}
 * ({@link SingleTableLoadEngine#prepare(long)}), so the transactions opened after it are labelled
 * {@code {prefix}-{table}-{subtask}-{runId}-{e + 1}} (Doris: {@code ..._{flush}}); the epoch numbers have no gaps,
 * and the state written at that checkpoint ({@link ExactlyOnceSinkState}, {@code checkpointId} = {@code e}) names
 * exactly the labels this run may leave open after it.
 *
 * <p><b>Start.</b> Before any row: roll back what the restored runs left open after their epochs
 * ({@link LingeringTransactionAborter}, with {@code sink.exactly-once.enable-abort-lingering-txn}); the labels in the
 * committer's restored committables have epochs &lt;= the recorded ones and are never probed. Then claim the run id
 * ({@link RunIdClaim}: derived from the job, the restored runs and epoch with a fixed target table, so the next
 * attempt from the same checkpoint finds what this one leaves open; random with {@code *} routing).
 *
 * <p>The engine's first asynchronous failure fails the task through one mail to its mailbox
 * ({@link EngineFailureWatch}). {@link #close}
 * never flushes: it rolls back only the transactions not yet prepared (prepared ones belong to a
 * checkpoint: the committer commits them, or the next restore rolls them back as lingering).
 *
 * <p>The subtask itself (settling at start, client, engine, row routing, prepare, failure watch) is
 * {@link ExactlyOnceSubtask}, shared with {@code ExactlyOnceSinkFunction}; this class adds the Sink V2 lifecycle and
 * numbers the epochs.
 *
 * <p>Task thread only (Flink's mailbox thread); the engine runs its own manager and I/O threads.
 *
 * @param <T> a {@code io.lockstep.flink.row.TableRow} type (any {@code StarRocksRowData} of the connector API is one)
 */
@NotThreadSafe
final class ExactlyOnceSinkWriter<T> implements StatefulSinkWriter<T, ExactlyOnceSinkState>,
        CommittingSinkWriter<T, CheckpointedTransaction> {
    private final ExactlyOnceSubtask subtask;
    /** The last epoch prepared (or restored). */
    private long epoch;

    ExactlyOnceSinkWriter(SinkConfig options, RowRouting routing, int subtaskIndex, String jobId,
                          MetricGroup metricGroup, EngineFailureWatch.Target failureTarget,
                          Collection<ExactlyOnceSinkState> restored) {
        epoch = restored.stream().mapToLong(ExactlyOnceSinkState::checkpointId).max().orElse(0);
        subtask = ExactlyOnceSubtask.open(new ExactlyOnceSubtask.Start(SinkSettings.from(options), routing,
                subtaskIndex, metricGroup, jobId, new ArrayList<>(restored), epoch, "epoch", failureTarget));
    }

    /**
     * Buffers one row for its table.
     *
     * @throws IllegalArgumentException if the element is not a {@code StarRocksRowData} or cannot be routed
     * @throws LoadEngineException      if an earlier load failed (first failure kept)
     */
    @Override
    public void write(T element, Context context) throws InterruptedException {
        subtask.write(element);
    }

    /** Reports a stored asynchronous failure; the loads themselves wait for {@link #prepareCommit}. */
    @Override
    public void flush(boolean endOfInput) {
        subtask.checkFailure();
    }

    /**
     * Before the barrier (and once at the end of input): flushes and prepares every table's transaction of the
     * next epoch.
     *
     * @return the prepared transactions, none if nothing was written since the last epoch
     * @throws LoadEngineException naming the epoch and subtask if a load, the prepare or an earlier asynchronous
     *                             operation failed (the checkpoint fails)
     */
    @Override
    public Collection<CheckpointedTransaction> prepareCommit() throws InterruptedException {
        List<CheckpointedTransaction> committables = subtask.prepare(epoch + 1);
        epoch++;
        return committables;
    }

    /** This run's identity and last prepared epoch; the committables travel separately. */
    @Override
    public List<ExactlyOnceSinkState> snapshotState(long checkpointId) {
        return List.of(subtask.state(epoch, List.of()));
    }

    /** Rolls back the transactions not yet prepared and releases everything; never flushes. */
    @Override
    public void close() throws Exception {
        subtask.close();
    }
}
