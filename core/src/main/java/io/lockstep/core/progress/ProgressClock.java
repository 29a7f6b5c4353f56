package io.lockstep.core.progress;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Formats {@code committed_at} of progress rows: UTC, {@code yyyy-MM-dd HH:mm:ss} (a StarRocks DATETIME literal). */
public final class ProgressClock {
    private static final DateTimeFormatter DATETIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneOffset.UTC);

    private ProgressClock() {
    }

    /** @return {@code instant} as {@code yyyy-MM-dd HH:mm:ss} in UTC */
    public static String format(Instant instant) {
        return DATETIME.format(instant);
    }
}
