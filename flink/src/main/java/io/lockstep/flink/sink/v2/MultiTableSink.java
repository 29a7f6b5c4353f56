package io.lockstep.flink.sink.v2;

import io.lockstep.flink.config.SinkConfigSource;
import io.lockstep.flink.sink.EngineFailureWatch;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.core.label.RunId;
import io.lockstep.flink.sink.SinkMode;
import io.lockstep.flink.sink.SinkSettings;
import io.lockstep.core.restart.MultiTableRunState;
import io.lockstep.flink.sink.MultiTableRuntime;
import java.util.ArrayList;
import java.util.Collection;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The multi-table transaction sink on Flink's Sink V2 API ({@code DataStream#sinkTo}), with the behaviour of
 * {@code MultiTableSinkFunction} (docs/architecture.md#the-multi-table-commit-cycle; docs/sinks.md): every table a subtask writes in one commit cycle
 * loads under one shared StarRocks transaction, committed every {@code sink.buffer-flush.interval-ms} at
 * source-transaction boundaries and before every checkpoint barrier. Input must be keyed by
 * {@code StarRocksRowData::getSourcePartition}:
 * {@code rows.keyBy(StarRocksRowData::getSourcePartition).sinkTo(LockstepSinks.createSink(options))}.
 *
 * <p>At-least-once: a restart replays from the last checkpoint under a fresh run identity; each writer keeps its run
 * in writer state ({@link MultiTableRunStateSerializer}), so a restored writer rolls back the shared transactions the
 * earlier runs it is handed left open after the checkpoint (docs/reliability.md#open-transactions-left-behind). After
 * a rescale Flink spreads the writer states over the new subtasks, each to one of them, so every earlier run is
 * settled once.
 * {@code sink.semantic=exactly-once}: exactly-once across tables through the progress table, as
 * {@code MultiTableSinkFunction} (docs/exactly-once.md); see {@link MultiTableSinkWriter}.
 *
 * @param <T> a {@code io.lockstep.flink.row.TableRow} type (any {@code StarRocksRowData} of the connector API is one)
 */
public final class MultiTableSink<T> extends StatefulLockstepSink<T, MultiTableRunState> {
    private static final long serialVersionUID = 1L;

    /**
     * @throws InvalidSinkOptionException if multi-table mode is off or the options cannot run on the engine
     */
    public MultiTableSink(SinkConfigSource options) {
        super(options, SinkMode.MULTI_TABLE);
    }

    /** A restore: settles what the handed earlier runs left open (at-least-once), then opens the engine. */
    @Override
    public StatefulSinkWriter<T, MultiTableRunState> restoreWriter(WriterInitContext context,
                                                                  Collection<MultiTableRunState> recoveredState) {
        return new MultiTableSinkWriter<>(new MultiTableRuntime.Start(SinkSettings.from(options), routing,
                WriterContexts.subtaskIndex(context), context.metricGroup(), RunId.attemptKey(
                        context.getJobInfo().getJobId().toString(), context.getRestoredCheckpointId().orElse(-1L),
                        context.getTaskInfo().getAttemptNumber()), new ArrayList<>(recoveredState),
                EngineFailureWatch.Target.mailbox(context.getMailboxExecutor())));
    }

    @Override
    public SimpleVersionedSerializer<MultiTableRunState> getWriterStateSerializer() {
        return new MultiTableRunStateSerializer();
    }
}
