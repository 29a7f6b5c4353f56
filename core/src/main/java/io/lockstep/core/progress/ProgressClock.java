package io.lockstep.core.progress;

import io.lockstep.core.time.Ticker;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Formats {@code committed_at} of progress rows: UTC, {@code yyyy-MM-dd HH:mm:ss} (a StarRocks DATETIME literal).
 * The value is informational (no decision reads it back), so it is taken from the core {@link Ticker}, whose
 * {@link Ticker#system()} values are epoch-like milliseconds.
 */
public final class ProgressClock {
    private static final DateTimeFormatter DATETIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneOffset.UTC);

    private ProgressClock() {
    }

    /** @return {@code ticker}'s now, read as epoch milliseconds, as {@code yyyy-MM-dd HH:mm:ss} in UTC */
    public static String now(Ticker ticker) {
        return DATETIME.format(Instant.ofEpochMilli(ticker.nowMs()));
    }
}
