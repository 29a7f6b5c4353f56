package io.lockstep.flink.options;

import java.util.Locale;

/**
 * The server family the sink writes to, option {@code sink.target}.
 *
 * <p>{@link #STARROCKS}: StarRocks transaction stream load (multi-table transactions, one transaction per table and
 * checkpoint in exactly-once mode). {@link #DORIS}: Apache Doris stream load; exactly-once uses Doris two-phase
 * commit, one pre-committed transaction per table and flush, committed by label when the checkpoint completes;
 * at-least-once uses plain stream loads whose labels deduplicate retries; multi-table atomic mode is not offered
 * (Doris has no multi-table transaction over HTTP). See {@code docs/doris.md}.
 */
public enum SinkTarget {
    STARROCKS("starrocks"),
    DORIS("doris");

    private final String optionValue;

    SinkTarget(String optionValue) {
        this.optionValue = optionValue;
    }

    /** @return the value as written in the option, e.g. {@code doris} */
    public String optionValue() {
        return optionValue;
    }

    /**
     * @param text option value, case-insensitive, surrounding blanks ignored
     * @return the target
     * @throws IllegalArgumentException naming the accepted values when {@code text} is none of them
     */
    public static SinkTarget fromOptionValue(String text) {
        String wanted = text.trim().toLowerCase(Locale.ROOT);
        for (SinkTarget target : values()) {
            if (target.optionValue.equals(wanted)) {
                return target;
            }
        }
        throw new IllegalArgumentException("expected one of 'starrocks', 'doris'");
    }
}
