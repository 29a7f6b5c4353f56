package io.lockstep.flink.options;

import io.lockstep.core.engine.DeliverySemantic;
import java.util.Locale;

/**
 * Delivery guarantee of the sink, option {@code sink.semantic}.
 *
 * <p>{@link #AT_LEAST_ONCE}: loads are committed on the sink's own schedule (commit interval, checkpoint, end of
 * input); a restart may load some rows again (idempotent on PRIMARY KEY tables). {@link #EXACTLY_ONCE}: one transaction
 * per table per checkpoint, prepared at the barrier and committed when the checkpoint completes (2PC with Flink,
 * docs/exactly-once.md); single-table only.
 */
public enum SinkSemantic {
    AT_LEAST_ONCE("at-least-once"),
    EXACTLY_ONCE("exactly-once");

    private final String optionValue;

    SinkSemantic(String optionValue) {
        this.optionValue = optionValue;
    }

    /** @return the core's name for this semantic */
    public DeliverySemantic deliverySemantic() {
        return this == EXACTLY_ONCE ? DeliverySemantic.EXACTLY_ONCE : DeliverySemantic.AT_LEAST_ONCE;
    }

    /** @return the value as written in the option, e.g. {@code at-least-once} */
    public String optionValue() {
        return optionValue;
    }

    /**
     * @param text option value, case-insensitive, surrounding blanks ignored
     * @return the semantic
     * @throws IllegalArgumentException naming the accepted values when {@code text} is none of them
     */
    public static SinkSemantic fromOptionValue(String text) {
        String wanted = text.trim().toLowerCase(Locale.ROOT);
        for (SinkSemantic semantic : values()) {
            if (semantic.optionValue.equals(wanted)) {
                return semantic;
            }
        }
        throw new IllegalArgumentException("expected one of 'at-least-once', 'exactly-once'");
    }
}
