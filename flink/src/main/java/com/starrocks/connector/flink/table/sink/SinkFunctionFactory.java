package com.starrocks.connector.flink.table.sink;

import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkOptionDefinitions;
import io.lockstep.flink.options.SinkSemantic;
import io.lockstep.flink.options.SinkVersion;
import io.lockstep.flink.sink.AtLeastOnceSinkFunction;
import io.lockstep.flink.sink.ExactlyOnceSinkFunction;
import io.lockstep.flink.sink.MultiTableSinkFunction;
import io.lockstep.flink.sink.SinkSettings;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;

/**
 * Creates the StarRocks sink for a DataStream job, the documented entry point (DESIGN.md §2; seed
 * {@code starrocks-flink-multi-table-transactions}, "完全な例":
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
     *     {@link #validate} and {@link SinkSettings#from})
     */
    @SuppressWarnings("deprecation") // SinkFunction is deprecated in Flink 1.20 but is the documented API
    public static <T> SinkFunction<T> createSinkFunction(StarRocksSinkOptions sinkOptions) {
        validate(sinkOptions);
        SinkSettings.from(sinkOptions);
        if (sinkOptions.isMultiTableTransactionEnabled()) {
            return new MultiTableSinkFunction<>(sinkOptions);
        }
        if (sinkOptions.getSemantic() == SinkSemantic.AT_LEAST_ONCE) {
            return new AtLeastOnceSinkFunction<>(sinkOptions);
        }
        return new ExactlyOnceSinkFunction<>(sinkOptions);
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
        if (sinkOptions == null) {
            throw new NullPointerException("sinkOptions is null; build them with StarRocksSinkOptions.builder()");
        }
        if (sinkOptions.getSinkVersion() == SinkVersion.V1) {
            throw new InvalidSinkOptionException(SinkOptionDefinitions.SINK_VERSION.key(),
                    "Invalid sink option 'sink.version' = 'V1': Lockstep implements only the transaction "
                            + "stream load sink; expected 'V2' or 'AUTO'");
        }
    }
}
