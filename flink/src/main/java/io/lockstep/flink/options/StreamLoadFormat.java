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

    /**
     * StarRocks' compressed-CSV {@code format} values (StarRocks docs "STREAM LOAD", data_desc: format), refused by
     * name: the sink sends them itself for {@code csv} with {@code sink.properties.compression}.
     */
    static final java.util.Set<String> COMPRESSED_CSV =
            java.util.Set.of("gzip", "bzip2", "lz4", "lz4_frame", "deflate", "zstd");

    /** @return the header value, {@code csv} or {@code json} */
    public String headerValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param text header value, case-insensitive, surrounding blanks ignored
     * @return the format
     * @throws IllegalArgumentException naming the accepted values when {@code text} is none of them (saying so when it
     *                                  is a compressed CSV format)
     */
    public static StreamLoadFormat fromHeaderValue(String text) {
        String wanted = text.trim().toUpperCase(Locale.ROOT);
        if (COMPRESSED_CSV.contains(wanted.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("'" + text.trim() + "' is StarRocks' header for a compressed CSV "
                    + "body, which the sink sets itself: set 'csv' with sink.properties.compression (gzip, bzip2, "
                    + "lz4_frame, zstd); expected one of 'csv', 'json'");
        }
        for (StreamLoadFormat format : values()) {
            if (format.name().equals(wanted)) {
                return format;
            }
        }
        throw new IllegalArgumentException("expected one of 'csv', 'json'");
    }
}
