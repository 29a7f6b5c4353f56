package io.lockstep.flink.sink.v2;

import io.lockstep.flink.config.SinkConfigSource;
import io.lockstep.flink.sink.EngineFailureWatch;
import io.lockstep.core.restart.CheckpointedTransaction;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.sink.ExactlyOnceSinkState;
import io.lockstep.flink.sink.ExactlyOnceSinkStateSerializer;
import io.lockstep.flink.sink.SinkMode;
import io.lockstep.flink.sink.SinkSettings;
import java.util.Collection;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The exactly-once single-table sink on Flink's Sink V2 API: two-phase commit with checkpoints
 * (docs/exactly-once.md), split the way Sink V2 splits it:
 * <ul>
 *   <li>the writer ({@link ExactlyOnceSinkWriter}) streams rows into one transaction per table and, before the
 *       checkpoint barrier, flushes and prepares them ({@code prepareCommit}); the prepared labels travel as
 *       committables ({@link CheckpointedTransaction}), and its state names its run so a restore can roll back
 *       what the run left open after the checkpoint;</li>
 *   <li>the committer ({@link ExactlyOnceCommitter}) commits each label once the checkpoint completes; Flink keeps
 *       the committables in the committer's state and hands them back after a failover, and a commit of an already
 *       committed label succeeds.</li>
 * </ul>
 * With {@code sink.target=doris} the same flow runs on Doris two-phase stream load (docs/doris.md).
 *
 * <p>Differences from {@code ExactlyOnceSinkFunction}: the state lives in Sink V2's writer and committer state, not
 * in the SinkFunction's operator state (docs/sink-v2.md: moving a job between the two needs a fresh start of the
 * sink); and Sink V2 does not show the job's checkpoint interval to the writer, so the start check of
 * {@code sink.properties.timeout} against it is not made: keep the timeout above the checkpoint interval.
 *
 * @param <T> a {@code io.lockstep.flink.row.TableRow} type (any {@code StarRocksRowData} of the connector API is one)
 */
public final class ExactlyOnceSink<T> extends StatefulLockstepSink<T, ExactlyOnceSinkState>
        implements SupportsCommitter<CheckpointedTransaction> {
    private static final long serialVersionUID = 1L;

    /**
     * @throws InvalidSinkOptionException if the options are not exactly-once single-table, or cannot run on the
     *                                    engine
     */
    public ExactlyOnceSink(SinkConfigSource options) {
        super(options, SinkMode.EXACTLY_ONCE);
    }

    /**
     * A restore: rolls back what the restored runs left open after the checkpoint, then opens the engine.
     *
     * @throws io.lockstep.flink.options.InvalidSinkOptionException if the options cannot run
     */
    @Override
    public StatefulSinkWriter<T, ExactlyOnceSinkState> restoreWriter(WriterInitContext context,
                                                                     Collection<ExactlyOnceSinkState> recoveredState) {
        return new ExactlyOnceSinkWriter<>(options, routing, WriterContexts.subtaskIndex(context),
                WriterContexts.jobId(context), context.metricGroup(),
                EngineFailureWatch.Target.mailbox(context.getMailboxExecutor()),
                recoveredState);
    }

    @Override
    public SimpleVersionedSerializer<ExactlyOnceSinkState> getWriterStateSerializer() {
        return new ExactlyOnceSinkStateSerializer();
    }

    @Override
    public Committer<CheckpointedTransaction> createCommitter(CommitterInitContext context) {
        return new ExactlyOnceCommitter(SinkSettings.from(options), context.metricGroup());
    }

    @Override
    public SimpleVersionedSerializer<CheckpointedTransaction> getCommittableSerializer() {
        return new CheckpointedTransactionSerializer();
    }
}
