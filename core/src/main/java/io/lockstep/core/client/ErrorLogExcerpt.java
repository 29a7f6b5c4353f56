package io.lockstep.core.client;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The first rows of the error log a failed load points at ({@code ErrorURL}, a plain-text BE page listing rejected
 * rows, one per line: docs/protocol.md#data-formats-and-filtered-rows), for the failure message: at most
 * {@value #MAX_LINES} lines, each cut at {@value #MAX_LINE_CHARS} characters, joined into ONE line (a failure that
 * cannot heal is reported in one line). These lines are the server's reasons; with sanitizing on, every line is also
 * cut at the row it quotes ({@code Row: ...} or {@code src line: ...}), so only the reason stays: rows may hold
 * personal data.
 */
final class ErrorLogExcerpt {
    /**
     * Bytes read from the error log at most (the official client keeps 3000 characters,
     * docs/protocol.md#what-the-official-starrocks-connector-does).
     */
    static final int MAX_BYTES = 3072;
    /** Lines of the error log quoted at most. */
    static final int MAX_LINES = 3;
    /** Characters kept of each quoted line. */
    static final int MAX_LINE_CHARS = 200;
    /** What replaces a row's values when sanitizing. */
    static final String REDACTED = "<row values removed>";

    private static final String[] ROW_MARKERS = {"row:", "src line:", "row=", "row ["};

    private ErrorLogExcerpt() {
    }

    /**
     * Fetches an excerpt, or explains why there is none. Never throws: the load failure matters more than its log.
     *
     * @param errorUrl the reply's {@code ErrorURL}, or null
     * @return "" when there is no error URL, else one line starting with {@code "; error log "}
     */
    static String fetch(StarRocksHttp http, String errorUrl, boolean sanitize) {
        if (errorUrl == null || errorUrl.isBlank()) {
            return "";
        }
        try {
            StarRocksHttp.HttpReply reply = http.getLimited(URI.create(errorUrl.trim()), MAX_BYTES);
            if (reply.statusCode() != 200) {
                return "; error log " + errorUrl + " unavailable: HTTP " + reply.statusCode();
            }
            String text = new String(reply.body(), StandardCharsets.UTF_8);
            if (sanitize) {
                text = sanitize(text);
            }
            return "; error log " + errorUrl + ": " + firstLines(text, reply.body().length >= MAX_BYTES);
        } catch (IOException | IllegalArgumentException e) {
            return "; error log " + errorUrl + " unavailable: " + oneLine(e.getMessage());
        }
    }

    /**
     * The first {@value #MAX_LINES} non-blank lines of {@code text}, each cut at {@value #MAX_LINE_CHARS} characters,
     * joined with {@code " | "}; says so when more lines follow or the log was cut at {@value #MAX_BYTES} bytes.
     */
    static String firstLines(String text, boolean cutAtMaxBytes) {
        StringBuilder out = new StringBuilder();
        int quoted = 0;
        boolean more = cutAtMaxBytes;
        for (String line : text.split("\\R")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            if (quoted == MAX_LINES) {
                more = true;
                break;
            }
            if (quoted > 0) {
                out.append(" | ");
            }
            out.append(trimmed.length() > MAX_LINE_CHARS ? trimmed.substring(0, MAX_LINE_CHARS) + "..." : trimmed);
            quoted++;
        }
        if (quoted == 0) {
            return "(empty)";
        }
        return more ? out + " | ... (first " + quoted + " lines)" : out.toString();
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replaceAll("\\R", " ");
    }

    /** Cuts every line at its first row marker ({@code Row:}, {@code src line:}, case-insensitive). */
    static String sanitize(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (String line : text.split("\n", -1)) {
            if (out.length() > 0) {
                out.append('\n');
            }
            String lower = line.toLowerCase(Locale.ROOT);
            int cut = -1;
            for (String marker : ROW_MARKERS) {
                int at = lower.indexOf(marker);
                if (at >= 0 && (cut < 0 || at < cut)) {
                    cut = at + marker.length();
                }
            }
            out.append(cut < 0 ? line : line.substring(0, cut) + " " + REDACTED);
        }
        return out.toString();
    }
}
