package io.lockstep.core.format;

/**
 * A format name {@link LoadFormats#forName} refused. The message is
 * {@code Invalid <setting> = '<name>': <reason>}; {@link #reason()} alone lets a caller that describes the setting in
 * its own words (e.g. marking a default value) keep the same reason.
 */
public final class UnsupportedLoadFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String reason;

    UnsupportedLoadFormatException(String setting, String name, String reason) {
        super("Invalid " + setting + " = '" + name + "': " + reason);
        this.reason = reason;
    }

    /** Why the name was refused and what is expected, e.g. "...; expected 'json'". */
    public String reason() {
        return reason;
    }
}
