package com.starrocks.connector.flink.table.sink;

import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkOptionDefinitions;
import io.lockstep.flink.options.SinkSemantic;
import io.lockstep.flink.options.SinkVersion;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the StarRocks sink for a DataStream job, the documented entry point (DESIGN.md §2; seed
 * {@code starrocks-flink-multi-table-transactions}, "完全な例":
 * {@code SinkFunction<DefaultStarRocksRowData> sink = SinkFunctionFactory.createSinkFunction(options)}).
 */
public final class SinkFunctionFactory {

    private static final Logger LOG = LoggerFactory.getLogger(SinkFunctionFactory.class);

    private SinkFunctionFactory() {
    }

    /**
     * Creates a sink for streams of {@code StarRocksRowData}; with multi-table transactions on,
     * the stream must be keyed by {@code StarRocksRowData::getSourcePartition}.
     *
     * <p>Not available yet: the engine-backed sink is issue 4's "Sink behaviour" part. This method
     * validates the options (so a misconfiguration is reported first) and then throws.
     *
     * @param sinkOptions validated options
     * @param <T> the element type; must be a {@code StarRocksRowData} implementation
     * @return the sink function
     * @throws InvalidSinkOptionException if the options are not usable by any Lockstep sink (see
     *     {@link #validate})
     * @throws UnsupportedOperationException always, until the sink is built (issue 4)
     */
    @SuppressWarnings("deprecation") // SinkFunction is deprecated in Flink 1.20 but is the documented API
    public static <T> SinkFunction<T> createSinkFunction(StarRocksSinkOptions sinkOptions) {
        validate(sinkOptions);
        // TODO(lead, issue 4 "Sink behaviour"): return the engine-backed SinkFunction here
        // (multi-table: StarRocksRowData -> engine write/txnEnd per source partition; exactly-once:
        // 2PC with checkpoint state). Also probe jdbc-url (warn only when unreachable) and check
        // sink.properties.timeout against the checkpoint interval for exactly-once at open().
        // Update SinkFunctionFactoryTest#createSinkFunctionIsNotAvailableYet when this changes.
        throw new UnsupportedOperationException("sink not built yet: issue 4 (the options are valid: "
                + describe(sinkOptions) + ")");
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
        if (sinkOptions.getSemantic() == SinkSemantic.EXACTLY_ONCE && sinkOptions.getLabelPrefix() == null
                && sinkOptions.isAbortLingeringTransactions()) {
            LOG.warn("sink.semantic=exactly-once without sink.label-prefix: a restored job cannot find "
                    + "lingering transactions of an earlier run; set sink.label-prefix to enable "
                    + "sink.exactly-once.enable-abort-lingering-txn");
        }
    }

    private static String describe(StarRocksSinkOptions sinkOptions) {
        return (sinkOptions.isMultiTableTransactionEnabled() ? "multi-table" : "single-table")
                + ", " + sinkOptions.getSemantic().optionValue()
                + ", target " + sinkOptions.getDatabaseName() + "." + sinkOptions.getTableName();
    }
}
