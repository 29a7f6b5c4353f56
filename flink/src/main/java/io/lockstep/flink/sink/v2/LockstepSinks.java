package io.lockstep.flink.sink.v2;

import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.config.SinkConfigSource;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkTarget;
import io.lockstep.flink.sink.SinkMode;
import java.util.Map;
import org.apache.flink.api.connector.sink2.Sink;

/**
 * Creates Lockstep's Sink V2 sinks ({@code DataStream#sinkTo}), the entry point that works on Flink 1.20 and 2.x
 * alike (on 1.20 the documented {@code SinkFunctionFactory.createSinkFunction} stays, and
 * {@code SinkFunctionFactory.createSink} delegates here). The options, their validation and the choice of sink
 * ({@link SinkMode}) are the SinkFunction's:
 *
 * <pre>{@code
 * rows.keyBy(StarRocksRowData::getSourcePartition).sinkTo(LockstepSinks.createSink(options));  // multi-table
 * rows.sinkTo(LockstepSinks.createSink(options));                                             // single-table
 * }</pre>
 */
public final class LockstepSinks {
    private LockstepSinks() {
    }

    /**
     * Creates the sink for {@code options} (the facade {@code StarRocksSinkOptions} or a {@link SinkConfig}):
     * <ul>
     *   <li>{@code sink.transaction.multi-table.enabled = true}: {@link MultiTableSink}; the stream must be keyed by
     *       {@code StarRocksRowData::getSourcePartition};</li>
     *   <li>single-table, {@code sink.semantic = at-least-once}: {@link AtLeastOnceSink};</li>
     *   <li>single-table, {@code sink.semantic = exactly-once}: {@link ExactlyOnceSink} (writer prepares at the
     *       barrier, committer commits by label).</li>
     * </ul>
     *
     * @param <T> the element type; must be a {@code io.lockstep.flink.row.TableRow} ({@code LoadRow}, or any {@code StarRocksRowData} of the connector API)
     * @throws InvalidSinkOptionException if the options are not usable by any Lockstep sink
     */
    public static <T> Sink<T> createSink(SinkConfigSource options) {
        return switch (SinkMode.select(options)) {
            case MULTI_TABLE -> new MultiTableSink<>(options);
            case AT_LEAST_ONCE -> new AtLeastOnceSink<>(options);
            case EXACTLY_ONCE -> new ExactlyOnceSink<>(options);
        };
    }

    /**
     * Creates a sink for {@code target} from option key/values ({@code sink.target} is set to {@code target}); for
     * {@link SinkTarget#DORIS} the Doris connector names ({@code fenodes}, {@code table.identifier},
     * {@code sink.enable-2pc}) are accepted too (docs/doris.md).
     *
     * @throws InvalidSinkOptionException if the options do not build or fit no sink, or name another target
     */
    public static <T> Sink<T> createSink(SinkTarget target, Map<String, String> options) {
        return createSink(SinkMode.optionsFor(target, options));
    }

    /**
     * Checks what a sink needs beyond a valid {@link SinkConfig}: options that parse but that no
     * Lockstep sink implements ({@link SinkMode#validate}).
     *
     * @throws InvalidSinkOptionException if {@code sink.version} is {@code V1}
     * @throws NullPointerException       if {@code options} is null
     */
    public static void validate(SinkConfigSource options) {
        SinkMode.validate(options);
    }
}
