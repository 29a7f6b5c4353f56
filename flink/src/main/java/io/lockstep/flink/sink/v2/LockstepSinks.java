package io.lockstep.flink.sink.v2;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkOptionDefinitions;
import io.lockstep.flink.options.SinkSemantic;
import io.lockstep.flink.options.SinkTarget;
import io.lockstep.flink.options.SinkVersion;
import io.lockstep.flink.sink.SinkSettings;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.connector.sink2.Sink;

/**
 * Creates Lockstep's Sink V2 sinks ({@code DataStream#sinkTo}), the entry point that works on Flink 1.20 and 2.x
 * alike (on 1.20 the documented {@code SinkFunctionFactory.createSinkFunction} stays, and
 * {@code SinkFunctionFactory.createSink} delegates here). The options and their validation are the SinkFunction's:
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
     * Creates the sink for {@code options}:
     * <ul>
     *   <li>{@code sink.transaction.multi-table.enabled = true}: {@link MultiTableSink}; the stream must be keyed by
     *       {@code StarRocksRowData::getSourcePartition};</li>
     *   <li>single-table, {@code sink.semantic = at-least-once}: {@link AtLeastOnceSink};</li>
     *   <li>single-table, {@code sink.semantic = exactly-once}: {@link ExactlyOnceSink} (writer prepares at the
     *       barrier, committer commits by label).</li>
     * </ul>
     *
     * @param <T> the element type; must be a {@code StarRocksRowData} implementation
     * @throws InvalidSinkOptionException if the options are not usable by any Lockstep sink
     */
    public static <T> Sink<T> createSink(StarRocksSinkOptions options) {
        validate(options);
        SinkSettings.from(options);
        if (options.isMultiTableTransactionEnabled()) {
            return new MultiTableSink<>(options);
        }
        if (options.getSemantic() == SinkSemantic.AT_LEAST_ONCE) {
            return new AtLeastOnceSink<>(options);
        }
        return new ExactlyOnceSink<>(options);
    }

    /**
     * Creates a sink for {@code target} from option key/values ({@code sink.target} is set to {@code target}); for
     * {@link SinkTarget#DORIS} the Doris connector names ({@code fenodes}, {@code table.identifier},
     * {@code sink.enable-2pc}) are accepted too (docs/doris.md).
     *
     * @throws InvalidSinkOptionException if the options do not build or fit no sink, or name another target
     */
    public static <T> Sink<T> createSink(SinkTarget target, Map<String, String> options) {
        Objects.requireNonNull(target, "target");
        String given = options.get(SinkOptionDefinitions.SINK_TARGET.key());
        if (given != null && SinkTarget.fromOptionValue(given) != target) {
            throw new InvalidSinkOptionException(SinkOptionDefinitions.SINK_TARGET.key(), "Sink option "
                    + "'sink.target' = '" + given + "' contradicts the target '" + target.optionValue()
                    + "' the sink is created for; remove the option");
        }
        return createSink(StarRocksSinkOptions.builder().withProperties(options)
                .withProperty(SinkOptionDefinitions.SINK_TARGET.key(), target.optionValue()).build());
    }

    /**
     * Checks what a sink needs beyond {@link StarRocksSinkOptions.Builder#build()}: options that parse but that no
     * Lockstep sink implements.
     *
     * @throws InvalidSinkOptionException if {@code sink.version} is {@code V1}
     * @throws NullPointerException       if {@code options} is null
     */
    public static void validate(StarRocksSinkOptions options) {
        if (options == null) {
            throw new NullPointerException("sinkOptions is null; build them with StarRocksSinkOptions.builder()");
        }
        if (options.getSinkVersion() == SinkVersion.V1) {
            throw new InvalidSinkOptionException(SinkOptionDefinitions.SINK_VERSION.key(),
                    "Invalid sink option 'sink.version' = 'V1': Lockstep implements only the transaction "
                            + "stream load sink; expected 'V2' or 'AUTO'");
        }
    }
}
