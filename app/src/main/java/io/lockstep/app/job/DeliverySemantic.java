package io.lockstep.app.job;

import io.lockstep.flink.options.SinkSemantic;
import java.util.Locale;

/**
 * How {@code lockstep run} loads StarRocks: {@code --semantic exactly-once} (the default) or
 * {@code at-least-once}. Both use multi-table transactions (a source transaction becomes visible whole); they
 * differ after a failure or restart (docs/exactly-once.md):
 * <ul>
 *   <li>{@link #EXACTLY_ONCE}: each shared transaction also commits the source position (Kafka offset) of every
 *       source partition it covers into a progress table; a restarted job settles earlier runs' transactions,
 *       drops what was committed already and starts Kafka right after it;</li>
 *   <li>{@link #AT_LEAST_ONCE}: a restart replays from the last checkpoint, and source transactions made visible
 *       after it are loaded again over newer rows until the replay catches up.</li>
 * </ul>
 * Apache Doris has no multi-table transaction and always loads exactly-once per table (docs/doris.md).
 */
public enum DeliverySemantic {
    EXACTLY_ONCE,
    AT_LEAST_ONCE;

    /** @return the option value, e.g. {@code exactly-once} (also the sink's {@code sink.semantic} value) */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** @return the sink's {@code sink.semantic} of the same name */
    public SinkSemantic sinkSemantic() {
        return this == EXACTLY_ONCE ? SinkSemantic.EXACTLY_ONCE : SinkSemantic.AT_LEAST_ONCE;
    }

    @Override
    public String toString() {
        return optionValue();
    }
}
