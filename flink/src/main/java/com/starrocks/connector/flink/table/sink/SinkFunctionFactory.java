package com.starrocks.connector.flink.table.sink;

import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkTarget;
import io.lockstep.flink.sink.AtLeastOnceSinkFunction;
import io.lockstep.flink.sink.ExactlyOnceSinkFunction;
import io.lockstep.flink.sink.LockstepSinkFunction;
import io.lockstep.flink.sink.MultiTableSinkFunction;
import io.lockstep.flink.sink.SinkMode;
import io.lockstep.flink.sink.SinkSettings;
import io.lockstep.flink.sink.v2.LockstepSinks;
import java.util.Map;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;

/**
 * Creates the StarRocks sink for a DataStream job, the documented entry point (the complete example of StarRocks'
 * multi-table transaction guide, https://docs.starrocks.io/docs/loading/Flink_multi_table_transaction/:
 * {@code SinkFunction<DefaultStarRocksRowData> sink = SinkFunctionFactory.createSinkFunction(options)}).
 */
public final class SinkFunctionFactory {

    private SinkFunctionFactory() {
    }

    /**
     * Creates a sink for streams of {@code StarRocksRowData}:
     * <ul>
     *   <li>{@code sink.transaction.multi-table.enabled = true}: {@link MultiTableSinkFunction}; the stream must be
     *       keyed by {@code StarRocksRowData::getSourcePartition};</li>
     *   <li>single-table, {@code sink.semantic = at-least-once}: {@link AtLeastOnceSinkFunction};</li>
     *   <li>single-table, {@code sink.semantic = exactly-once}: {@link ExactlyOnceSinkFunction} (two-phase commit
     *       with checkpoints, docs/exactly-once.md).</li>
     * </ul>
     * The options are checked here (so a misconfiguration fails the job submission, not every subtask); the sink
     * opens its HTTP client and engine in {@code open()}.
     *
     * @param sinkOptions validated options
     * @param <T> the element type; must be a {@code StarRocksRowData} implementation
     * @return the sink function
     * @throws InvalidSinkOptionException if the options are not usable by any Lockstep sink (see
     *     {@link #validate}, {@link SinkMode} and {@link SinkSettings#from})
     */
    @SuppressWarnings("deprecation") // SinkFunction is deprecated in Flink 1.20 but is the documented API
    public static <T> SinkFunction<T> createSinkFunction(StarRocksSinkOptions sinkOptions) {
        return LockstepSinkFunction.create(sinkOptions);
    }

    /**
     * Creates a sink for {@code target} from option key/values: {@code sink.target} is set to {@code target}, the
     * options are built and validated, and the sink is chosen as in {@link #createSinkFunction(StarRocksSinkOptions)}.
     * The same keys serve both targets ({@code load-url}, {@code database-name}, {@code table-name},
     * {@code username}, {@code password}, {@code sink.semantic}, ...); for {@link SinkTarget#DORIS} the Doris
     * connector names ({@code fenodes}, {@code table.identifier}, {@code sink.enable-2pc}) are accepted too, and
     * multi-table mode is refused (docs/doris.md).
     *
     * <pre>{@code
     * SinkFunction<DefaultStarRocksRowData> sink = SinkFunctionFactory.createSinkFunction(SinkTarget.DORIS, Map.of(
     *         "load-url", "127.0.0.1:8030", "database-name", "*", "table-name", "*", "username", "root",
     *         "sink.semantic", "exactly-once", "sink.properties.format", "json"));
     * }</pre>
     *
     * @param target  the server family
     * @param options option keys to values; must not name another {@code sink.target}
     * @param <T>     the element type; must be a {@code StarRocksRowData} implementation
     * @throws InvalidSinkOptionException if the options do not build or fit no sink, or name another target
     */
    @SuppressWarnings("deprecation") // SinkFunction is deprecated in Flink 1.20 but is the documented API
    public static <T> SinkFunction<T> createSinkFunction(SinkTarget target, Map<String, String> options) {
        return LockstepSinkFunction.create(SinkMode.optionsFor(target, options));
    }

    /**
     * Creates the same sink on Flink's Sink V2 API, for {@code DataStream#sinkTo}; see
     * {@link LockstepSinks#createSink(StarRocksSinkOptions)} (the entry point that also exists on Flink 2.x).
     *
     * @param <T> the element type; must be a {@code StarRocksRowData} implementation
     * @throws InvalidSinkOptionException if the options are not usable by any Lockstep sink
     */
    public static <T> Sink<T> createSink(StarRocksSinkOptions sinkOptions) {
        return LockstepSinks.createSink(sinkOptions);
    }

    /**
     * Checks what a sink needs beyond {@link StarRocksSinkOptions.Builder#build()}: options that
     * parse but that no Lockstep sink implements.
     *
     * @param sinkOptions options to check
     * @throws InvalidSinkOptionException if {@code sink.version} is {@code V1}
     * @throws NullPointerException if {@code sinkOptions} is null
     */
    public static void validate(StarRocksSinkOptions sinkOptions) {
        SinkMode.validate(sinkOptions);
    }
}
