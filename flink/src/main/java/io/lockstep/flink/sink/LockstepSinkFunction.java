package io.lockstep.flink.sink;

import io.lockstep.flink.config.SinkConfigSource;
import io.lockstep.flink.options.InvalidSinkOptionException;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;

/**
 * Creates Lockstep's SinkFunction sinks (Flink 1.20's {@code DataStream#addSink}): the choice behind the documented
 * {@code SinkFunctionFactory.createSinkFunction} and {@code lockstep run}, by {@link SinkMode}:
 * <ul>
 *   <li>{@link SinkMode#MULTI_TABLE}: {@link MultiTableSinkFunction}; the stream must be keyed by source
 *       partition;</li>
 *   <li>{@link SinkMode#AT_LEAST_ONCE}: {@link AtLeastOnceSinkFunction};</li>
 *   <li>{@link SinkMode#EXACTLY_ONCE}: {@link ExactlyOnceSinkFunction} (two-phase commit with checkpoints,
 *       docs/exactly-once.md).</li>
 * </ul>
 * Not on Flink 2.x, which removed SinkFunction (use {@code v2.LockstepSinks}). Stateless.
 */
public final class LockstepSinkFunction {
    private LockstepSinkFunction() {
    }

    /**
     * @param options the configuration, or the facade that translates into one
     * @param <T>     the element type; must be a {@code io.lockstep.flink.row.TableRow} ({@code LoadRow}, or any {@code StarRocksRowData} of the connector API)
     * @return the sink function; it opens its HTTP client and engine in {@code open()}
     * @throws InvalidSinkOptionException if the options are not usable by any Lockstep sink
     */
    @SuppressWarnings("deprecation") // SinkFunction is deprecated in Flink 1.20 but is the documented API
    public static <T> SinkFunction<T> create(SinkConfigSource options) {
        return switch (SinkMode.select(options)) {
            case MULTI_TABLE -> new MultiTableSinkFunction<>(options);
            case AT_LEAST_ONCE -> new AtLeastOnceSinkFunction<>(options);
            case EXACTLY_ONCE -> new ExactlyOnceSinkFunction<>(options);
        };
    }
}
