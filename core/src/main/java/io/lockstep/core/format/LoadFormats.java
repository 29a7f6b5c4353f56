package io.lockstep.core.format;

import java.util.Locale;
import java.util.Optional;

/**
 * The one place a load format name (the {@code format} stream load header, e.g. option
 * {@code sink.properties.format}) becomes a {@link LoadFormat}. Lockstep sends JSON bodies only today: {@code csv}
 * and any other name are refused in one line naming the setting.
 */
public final class LoadFormats {
    /** Why {@code csv} is refused. */
    static final String CSV_REASON = "Lockstep's sinks load each row (getRow()) as one JSON object; expected 'json'";

    private LoadFormats() {
    }

    /**
     * @param name    the format name, case-insensitive, surrounding blanks ignored
     * @param setting the setting that named it, for the message, e.g. {@code sink.properties.format}
     * @return the format
     * @throws UnsupportedLoadFormatException naming {@code setting}, {@code name} and why, if no format of that name
     *                                        is implemented
     */
    public static LoadFormat forName(String name, String setting) {
        return find(name).orElseThrow(() -> new UnsupportedLoadFormatException(setting, name,
                normalized(name).equals("csv") ? CSV_REASON : "not a load format Lockstep sends; expected 'json'"));
    }

    /**
     * The format of that name if Lockstep implements it, for a caller that must also describe formats it cannot load
     * (e.g. the connector options' headers for {@code csv}, refused later when a sink is made).
     *
     * @param name the format name, case-insensitive, surrounding blanks ignored; null finds nothing
     */
    public static Optional<LoadFormat> find(String name) {
        return normalized(name).equals(JsonLoadFormat.NAME) ? Optional.of(JsonLoadFormat.INSTANCE) : Optional.empty();
    }

    private static String normalized(String name) {
        return name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    }
}
