package io.lockstep.flink.sink.v2;

import io.lockstep.flink.config.SinkConfigSource;
import io.lockstep.flink.sink.EngineFailureWatch;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.sink.SinkMode;
import io.lockstep.flink.sink.SinkSettings;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * The at-least-once single-table sink on Flink's Sink V2 API ({@code DataStream#sinkTo}): the same engine and the
 * same behaviour as {@code AtLeastOnceSinkFunction}: one transaction stream load per table and flush, committed
 * every {@code sink.buffer-flush.interval-ms}, at {@code sink.buffer-flush.max-bytes}, before every checkpoint
 * barrier ({@link SinkWriter#flush}) and at the end of bounded input; with {@code sink.target=doris} one plain
 * stream load per table and flush (docs/doris.md). No state and no committer: every checkpoint commits.
 *
 * @param <T> a {@code io.lockstep.flink.row.TableRow} type (any {@code StarRocksRowData} of the connector API is one)
 */
public final class AtLeastOnceSink<T> extends LockstepSink<T> {
    private static final long serialVersionUID = 1L;

    /**
     * @throws InvalidSinkOptionException if the options are multi-table or exactly-once, or cannot run on the engine
     */
    public AtLeastOnceSink(SinkConfigSource options) {
        super(options, SinkMode.AT_LEAST_ONCE);
    }

    /** Opens the subtask's client and engine. */
    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
        return new AtLeastOnceSinkWriter<>(SinkSettings.from(options), routing, WriterContexts.subtaskIndex(context),
                context.metricGroup(),
                EngineFailureWatch.Target.mailbox(context.getMailboxExecutor()));
    }
}
