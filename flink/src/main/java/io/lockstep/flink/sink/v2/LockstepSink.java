package io.lockstep.flink.sink.v2;

import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.config.SinkConfigSource;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.sink.RowRouting;
import io.lockstep.flink.sink.SinkMode;

/**
 * What the Sink V2 sinks ({@link AtLeastOnceSink}, {@link ExactlyOnceSink}, {@link MultiTableSink}) share: the options
 * they were created with, checked for the sink's {@link SinkMode} when it is constructed (so a misconfiguration fails
 * the job submission, not every subtask), and the row routing they give every writer.
 *
 * <p>Immutable after construction; shipped to the subtasks by Java serialization.
 *
 * @param <T> a {@code io.lockstep.flink.row.TableRow} type (any {@code StarRocksRowData} of the connector API is one)
 */
abstract class LockstepSink<T> implements CompatibleSink<T> {
    private static final long serialVersionUID = 1L;

    final SinkConfig options;
    final RowRouting routing;

    /**
     * @throws InvalidSinkOptionException if the options ask for another mode than {@code mode}, or cannot run on the
     *                                    engine
     */
    LockstepSink(SinkConfigSource options, SinkMode mode) {
        mode.check(options, getClass().getSimpleName());
        this.options = options.sinkConfig();
        this.routing = RowRouting.from(this.options);
    }
}
