package io.lockstep.flink.options;

import java.util.Locale;

/**
 * Data format of the rows, option {@code sink.properties.format} (sent as the {@code format} stream load header;
 * docs/protocol.md#load-headers). {@link #CSV} is the default as in the StarRocks connector; {@link #JSON} expects each
 * row to be one JSON object.
 */
public enum StreamLoadFormat {
    CSV,
    JSON;

    /** @return the header value, {@code csv} or {@code json} */
    public String headerValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param text header value, case-insensitive, surrounding blanks ignored
     * @return the format
     * @throws IllegalArgumentException naming the accepted values when {@code text} is none of them
     */
    public static StreamLoadFormat fromHeaderValue(String text) {
        String wanted = text.trim().toUpperCase(Locale.ROOT);
        for (StreamLoadFormat format : values()) {
            if (format.name().equals(wanted)) {
                return format;
            }
        }
        throw new IllegalArgumentException("expected one of 'csv', 'json'");
    }
}
