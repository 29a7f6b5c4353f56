package io.lockstep.flink.options;

import java.util.Locale;

/**
 * Sink implementation, option {@code sink.version}.
 *
 * <p>{@link #V2} is the transaction stream load sink (the only one Lockstep implements, and the one multi-table
 * transactions require, see {@code sink.version} in
 * https://docs.starrocks.io/docs/loading/Flink_multi_table_transaction/). {@link #AUTO} selects V2. {@link #V1} names
 * the StarRocks connector's legacy sink without transaction stream load; it is accepted as a value so that option maps
 * from that connector parse, but {@code SinkFunctionFactory} rejects it.
 */
public enum SinkVersion {
    AUTO,
    V1,
    V2;

    /**
     * @param text option value, case-insensitive, surrounding blanks ignored
     * @return the version
     * @throws IllegalArgumentException naming the accepted values when {@code text} is none of them
     */
    public static SinkVersion fromOptionValue(String text) {
        String wanted = text.trim().toUpperCase(Locale.ROOT);
        for (SinkVersion version : values()) {
            if (version.name().equals(wanted)) {
                return version;
            }
        }
        throw new IllegalArgumentException("expected one of 'AUTO', 'V1', 'V2'");
    }
}
