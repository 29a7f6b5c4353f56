package io.lockstep.flink.sink.v2;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkOptionDefinitions;
import io.lockstep.core.progress.RunIds;
import io.lockstep.flink.sink.RowRouting;
import io.lockstep.flink.sink.SinkSettings;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * The multi-table transaction sink on Flink's Sink V2 API ({@code DataStream#sinkTo}), with the behaviour of
 * {@code MultiTableSinkFunction} (docs/architecture.md#the-multi-table-commit-cycle; docs/sinks.md): every table a subtask writes in one commit cycle
 * loads under one shared StarRocks transaction, committed every {@code sink.buffer-flush.interval-ms} at
 * source-transaction boundaries and before every checkpoint barrier. Input must be keyed by
 * {@code StarRocksRowData::getSourcePartition}:
 * {@code rows.keyBy(StarRocksRowData::getSourcePartition).sinkTo(LockstepSinks.createSink(options))}.
 *
 * <p>At-least-once: no state, a restart replays from the last checkpoint under a fresh run identity.
 * {@code sink.semantic=exactly-once}: exactly-once across tables through the progress table, as
 * {@code MultiTableSinkFunction} (docs/exactly-once.md); see {@link MultiTableSinkWriter}.
 *
 * @param <T> a {@code StarRocksRowData} type
 */
public final class MultiTableSink<T> implements CompatibleSink<T> {
    private static final long serialVersionUID = 1L;

    private final StarRocksSinkOptions options;
    private final RowRouting routing;

    /**
     * @throws InvalidSinkOptionException if multi-table mode is off or the options cannot run on the engine
     */
    public MultiTableSink(StarRocksSinkOptions options) {
        if (!options.isMultiTableTransactionEnabled()) {
            throw new InvalidSinkOptionException(SinkOptionDefinitions.MULTI_TABLE_ENABLED.key(),
                    "MultiTableSink needs 'sink.transaction.multi-table.enabled' = 'true'");
        }
        SinkSettings.from(options);
        this.options = options;
        this.routing = RowRouting.from(options);
    }

    /** Opens the subtask's client and multi-table engine. */
    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
        return new MultiTableSinkWriter<>(SinkSettings.from(options), routing, WriterContexts.subtaskIndex(context),
                context.metricGroup(), context.getProcessingTimeService(), RunIds.attemptKey(
                        context.getJobInfo().getJobId().toString(), context.getRestoredCheckpointId().orElse(-1L),
                        context.getTaskInfo().getAttemptNumber()));
    }
}
