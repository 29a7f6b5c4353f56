package io.lockstep.core.client;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The first few KB of the error log a failed load points at ({@code ErrorURL}, a plain-text BE page listing rejected
 * rows, docs/protocol.md#data-formats-and-filtered-rows), for the failure message. With sanitizing on, every line is
 * cut at the row it quotes ({@code Row: ...} or {@code src line: ...}), so only the reason stays: rows may hold
 * personal data.
 */
final class ErrorLogExcerpt {
    /**
     * Bytes read from the error log at most (the official client keeps 3000 characters,
     * docs/protocol.md#what-the-official-starrocks-connector-does).
     */
    static final int MAX_BYTES = 3072;
    /** What replaces a row's values when sanitizing. */
    static final String REDACTED = "<row values removed>";

    private static final String[] ROW_MARKERS = {"row:", "src line:", "row=", "row ["};

    private ErrorLogExcerpt() {
    }

    /**
     * Fetches an excerpt, or explains why there is none. Never throws: the load failure matters more than its log.
     *
     * @param errorUrl the reply's {@code ErrorURL}, or null
     * @return "" when there is no error URL, else a text starting with a newline
     */
    static String fetch(StarRocksHttp http, String errorUrl, boolean sanitize) {
        if (errorUrl == null || errorUrl.isBlank()) {
            return "";
        }
        try {
            StarRocksHttp.HttpReply reply = http.getLimited(URI.create(errorUrl.trim()), MAX_BYTES);
            if (reply.statusCode() != 200) {
                return "\nerror log " + errorUrl + " unavailable: HTTP " + reply.statusCode();
            }
            String text = new String(reply.body(), StandardCharsets.UTF_8);
            if (sanitize) {
                text = sanitize(text);
            }
            String more = reply.body().length >= MAX_BYTES ? "\n... (cut at " + MAX_BYTES + " bytes)" : "";
            return "\nerror log " + errorUrl + ":\n" + text + more;
        } catch (IOException | IllegalArgumentException e) {
            return "\nerror log " + errorUrl + " unavailable: " + e.getMessage();
        }
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
