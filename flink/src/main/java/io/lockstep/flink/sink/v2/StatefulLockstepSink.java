package io.lockstep.flink.sink.v2;

import io.lockstep.flink.config.SinkConfigSource;
import io.lockstep.flink.sink.SinkMode;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * A Lockstep Sink V2 sink whose writers keep state ({@link ExactlyOnceSink}: its run and last epoch;
 * {@link MultiTableSink}: its run): a fresh start is a restore with no state, so each sink writes only
 * {@link #restoreWriter}. Immutable after construction.
 *
 * @param <T> a {@code io.lockstep.flink.row.TableRow} type (any {@code StarRocksRowData} of the connector API is one)
 * @param <S> the writer state
 */
abstract class StatefulLockstepSink<T, S> extends LockstepSink<T> implements SupportsWriterState<T, S> {
    private static final long serialVersionUID = 1L;

    StatefulLockstepSink(SinkConfigSource options, SinkMode mode) {
        super(options, mode);
    }

    /** A fresh start: {@link #restoreWriter} with no earlier run to settle. */
    @Override
    public final StatefulSinkWriter<T, S> createWriter(WriterInitContext context) {
        return restoreWriter(context, List.of());
    }

    /**
     * A restore: settles what the earlier runs in {@code recoveredState} left open, then opens the subtask's engine.
     *
     * @throws io.lockstep.flink.options.InvalidSinkOptionException if the options cannot run
     */
    @Override
    public abstract StatefulSinkWriter<T, S> restoreWriter(WriterInitContext context, Collection<S> recoveredState);
}
