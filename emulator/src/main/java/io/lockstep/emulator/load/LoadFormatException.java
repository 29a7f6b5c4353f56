package io.lockstep.emulator.load;

/**
 * A load request is unusable as a whole (not a per-row data problem): unknown format, a {@code columns} or
 * {@code jsonpaths} header that does not parse or names an unknown column, an invalid boolean header, etc.
 *
 * <p>{@link #statusCode()} is the BE status-code name the real server reports for it ({@code INVALID_ARGUMENT},
 * {@code INTERNAL_ERROR} or {@code ANALYSIS_ERROR}; docs/protocol.md#status-values).
 */
public class LoadFormatException extends Exception {
    private final String statusCode;

    public LoadFormatException(String statusCode, String message) {
        super(message);
        this.statusCode = statusCode;
    }

    public String statusCode() {
        return statusCode;
    }
}
