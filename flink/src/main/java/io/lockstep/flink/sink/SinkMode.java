package io.lockstep.flink.sink;

import io.lockstep.core.server.Target;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.config.SinkConfigSource;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkOptionDefinitions;
import io.lockstep.flink.options.SinkSemantic;
import io.lockstep.flink.options.SinkTarget;
import io.lockstep.flink.options.SinkVersion;
import java.util.Map;
import java.util.Objects;

/**
 * Which Lockstep sink a set of options asks for, on either Flink sink API: the one choice both factories make
 * ({@code SinkFunctionFactory.createSinkFunction}, {@code v2.LockstepSinks.createSink}) and every sink checks again in
 * its constructor (docs/sinks.md):
 * <ul>
 *   <li>{@link #MULTI_TABLE}: {@code sink.transaction.multi-table.enabled = true}, either semantic;</li>
 *   <li>{@link #AT_LEAST_ONCE}: single-table, {@code sink.semantic = at-least-once};</li>
 *   <li>{@link #EXACTLY_ONCE}: single-table, {@code sink.semantic = exactly-once} (two-phase commit with
 *       checkpoints, docs/exactly-once.md).</li>
 * </ul>
 * Immutable.
 */
public enum SinkMode {
    MULTI_TABLE,
    AT_LEAST_ONCE,
    EXACTLY_ONCE;

    /**
     * The mode {@code options} ask for, after {@link #validate} (the sinks check the rest of what they need when
     * constructed).
     *
     * @throws InvalidSinkOptionException if the options are not usable by any Lockstep sink
     * @throws NullPointerException       if {@code options} is null
     */
    public static SinkMode select(SinkConfigSource source) {
        validate(source);
        SinkConfig options = source.sinkConfig();
        if (options.isMultiTableTransactionEnabled()) {
            return MULTI_TABLE;
        }
        return options.getSemantic() == SinkSemantic.AT_LEAST_ONCE ? AT_LEAST_ONCE : EXACTLY_ONCE;
    }

    /**
     * Checks what a sink needs beyond a valid {@link SinkConfig}: options that parse but that no Lockstep sink
     * implements.
     *
     * @throws InvalidSinkOptionException if {@code sink.version} is {@code V1}
     * @throws NullPointerException       if {@code options} is null
     */
    public static void validate(SinkConfigSource options) {
        if (options == null) {
            throw new NullPointerException("sinkOptions is null; build them with StarRocksSinkOptions.builder()");
        }
        if (options.sinkConfig().getSinkVersion() == SinkVersion.V1) {
            throw new InvalidSinkOptionException(SinkOptionDefinitions.SINK_VERSION.key(),
                    "Invalid sink option 'sink.version' = 'V1': Lockstep implements only the transaction "
                            + "stream load sink; expected 'V2' or 'AUTO'");
        }
    }

    /**
     * Builds and validates the configuration for {@code target} from key/values: {@code sink.target} is set to
     * {@code target}; for {@link SinkTarget#DORIS} the Doris connector names ({@code fenodes},
     * {@code table.identifier}, {@code sink.enable-2pc}) are accepted too (docs/doris.md).
     *
     * @throws InvalidSinkOptionException if the options do not build, or name another {@code sink.target}
     */
    public static SinkConfig optionsFor(SinkTarget target, Map<String, String> options) {
        Objects.requireNonNull(target, "target");
        String given = options.get(SinkOptionDefinitions.SINK_TARGET.key());
        if (given != null && Target.fromOptionValue(given) != target.target()) {
            throw new InvalidSinkOptionException(SinkOptionDefinitions.SINK_TARGET.key(), "Sink option "
                    + "'sink.target' = '" + given + "' contradicts the target '" + target.optionValue()
                    + "' the sink is created for; remove the option");
        }
        return SinkConfig.builder().options(options).target(target.target()).build();
    }

    /**
     * Checks, in the constructor of sink {@code sinkName}, that {@code options} ask for this mode and can run on the
     * engine ({@link SinkSettings#from}).
     *
     * @throws InvalidSinkOptionException naming {@code sink.transaction.multi-table.enabled} or
     *                                    {@code sink.semantic} if the options ask for another mode, or the option
     *                                    that cannot run
     */
    public void check(SinkConfigSource source, String sinkName) {
        SinkConfig options = source.sinkConfig();
        boolean multiTable = options.isMultiTableTransactionEnabled();
        if (this == MULTI_TABLE && !multiTable) {
            throw new InvalidSinkOptionException(SinkOptionDefinitions.MULTI_TABLE_ENABLED.key(),
                    sinkName + " needs 'sink.transaction.multi-table.enabled' = 'true'");
        }
        SinkSemantic semantic = this == AT_LEAST_ONCE ? SinkSemantic.AT_LEAST_ONCE : SinkSemantic.EXACTLY_ONCE;
        if (this != MULTI_TABLE && (multiTable || options.getSemantic() != semantic)) {
            throw new InvalidSinkOptionException(SinkOptionDefinitions.SINK_SEMANTIC.key(), sinkName + " needs "
                    + "'sink.semantic' = '" + semantic.optionValue() + "' without multi-table mode");
        }
        SinkSettings.from(options);
    }
}
