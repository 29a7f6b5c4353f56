package io.lockstep.core.format;

import java.util.Locale;

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
        String wanted = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        if (wanted.equals(JsonLoadFormat.NAME)) {
            return JsonLoadFormat.INSTANCE;
        }
        String reason = wanted.equals("csv") ? CSV_REASON
                : "not a load format Lockstep sends; expected 'json'";
        throw new UnsupportedLoadFormatException(setting, name, reason);
    }
}
