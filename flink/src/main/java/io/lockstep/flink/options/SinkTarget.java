package io.lockstep.flink.options;

import io.lockstep.core.server.Target;

/**
 * The server family as named in the public factories ({@code SinkFunctionFactory.createSinkFunction(SinkTarget,
 * Map)}, {@code LockstepSinks.createSink(SinkTarget, Map)}, the {@code lockstep run --target} value): a name for a
 * core {@link Target}, which carries every difference between the two (docs/doris.md). The option
 * {@code sink.target} itself reads as a {@link Target} ({@link SinkOptionDefinitions#SINK_TARGET}).
 *
 * <p>{@link #STARROCKS}: StarRocks transaction stream load. {@link #DORIS}: Apache Doris stream load, exactly-once by
 * Doris two-phase commit per table and flush; no multi-table atomic mode. Immutable.
 */
public enum SinkTarget {
    STARROCKS(Target.STARROCKS),
    DORIS(Target.DORIS);

    private final Target target;

    SinkTarget(Target target) {
        this.target = target;
    }

    /** @return the core target this name stands for */
    public Target target() {
        return target;
    }

    /** @return the value as written in the option, e.g. {@code doris} */
    public String optionValue() {
        return target.optionValue();
    }

    /**
     * @param target a core target
     * @return its name here
     */
    public static SinkTarget of(Target target) {
        return valueOf(target.name());
    }

    /**
     * @param text option value, case-insensitive, surrounding blanks ignored ({@link Target#fromOptionValue})
     * @return the target
     * @throws IllegalArgumentException naming the accepted values when {@code text} is none of them
     */
    public static SinkTarget fromOptionValue(String text) {
        return of(Target.fromOptionValue(text));
    }
}
