package io.lockstep.core.format;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The one place a load format name (the {@code format} stream load header, e.g. option
 * {@code sink.properties.format}) becomes a {@link LoadFormat}: {@code json} ({@link JsonLoadFormat}) or {@code csv}
 * ({@link CsvLoadFormat}, its separators read from the stream load headers), either with compressed bodies
 * ({@link CompressedLoadFormat}) when the headers set {@code compression} (StarRocks) or {@code compress_type} (Doris);
 * any other name or compression is refused in one line naming the setting.
 */
public final class LoadFormats {
    private LoadFormats() {
    }

    /**
     * {@link #forName(String, String, Map)} with no headers: CSV with the servers' default separators.
     */
    public static LoadFormat forName(String name, String setting) {
        return forName(name, setting, Map.of());
    }

    /**
     * @param name    the format name, case-insensitive, surrounding blanks ignored
     * @param setting the setting that named it, for the message, e.g. {@code sink.properties.format}
     * @param headers the stream load headers the format reads its settings from (CSV: {@code column_separator},
     *                {@code row_delimiter} / {@code line_delimiter})
     * @return the format; a new {@link CsvLoadFormat} on every call (it keeps each table's column list)
     * @throws UnsupportedLoadFormatException naming {@code setting}, {@code name} and why, if no format of that name
     *                                        is implemented or its headers cannot be read
     */
    public static LoadFormat forName(String name, String setting, Map<String, String> headers) {
        LoadFormat plain;
        switch (normalized(name)) {
            case JsonLoadFormat.NAME:
                plain = JsonLoadFormat.INSTANCE;
                break;
            case CsvLoadFormat.NAME:
                try {
                    plain = CsvLoadFormat.fromHeaders(headers);
                } catch (IllegalArgumentException e) {
                    throw new UnsupportedLoadFormatException(setting, name, e.getMessage());
                }
                break;
            default:
                throw new UnsupportedLoadFormatException(setting, name,
                        "not a load format Lockstep sends; expected 'json' or 'csv'");
        }
        try {
            return compression(headers).<LoadFormat>map(c -> new CompressedLoadFormat(plain, c)).orElse(plain);
        } catch (IllegalArgumentException e) {
            throw new UnsupportedLoadFormatException(setting, name, e.getMessage());
        }
    }

    /**
     * The body compression the headers ask for: StarRocks' {@code compression} or Doris' {@code compress_type}
     * ({@link BodyCompression}); none if neither is set.
     *
     * @throws IllegalArgumentException if both are set, or a value is not implemented (naming it)
     */
    static Optional<BodyCompression> compression(Map<String, String> headers) {
        String starRocks = headers.get("compression");
        String doris = headers.get("compress_type");
        if (starRocks != null && doris != null) {
            throw new IllegalArgumentException("both compression ('" + starRocks + "', StarRocks' header) and "
                    + "compress_type ('" + doris + "', Doris' header) are set; set the one of the target");
        }
        if (starRocks != null) {
            return Optional.of(BodyCompression.fromStarRocksName(starRocks));
        }
        return doris == null ? Optional.empty() : Optional.of(BodyCompression.fromDorisName(doris));
    }

    /**
     * The format of that name if Lockstep implements it (CSV with its default separators), for a caller that must also
     * describe names it cannot load.
     *
     * @param name the format name, case-insensitive, surrounding blanks ignored; null finds nothing
     */
    public static Optional<LoadFormat> find(String name) {
        String normalized = normalized(name);
        if (normalized.equals(JsonLoadFormat.NAME)) {
            return Optional.of(JsonLoadFormat.INSTANCE);
        }
        return normalized.equals(CsvLoadFormat.NAME) ? Optional.of(CsvLoadFormat.fromHeaders(Map.of()))
                : Optional.empty();
    }

    private static String normalized(String name) {
        return name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    }
}
