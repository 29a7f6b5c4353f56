package io.lockstep.app.demo;

import java.util.Locale;

/**
 * A count with its noun, as the console lines of {@code lockstep run} and {@code lockstep demo} print them:
 * {@code 1 source transaction}, {@code 1,200 source transactions}, {@code 0 restarts}. Lives next to
 * {@link JobMetrics}, whose counters both commands print.
 */
public final class Counts {
    private Counts() {
    }

    /**
     * @param count how many, printed with thousands separators
     * @param noun a noun phrase whose last word takes a plain {@code s} in the plural (every noun the console
     *     prints: {@code row}, {@code source transaction}, {@code StarRocks transaction}, {@code dead letter},
     *     {@code restart})
     * @return e.g. {@code 1 row}, {@code 0 rows}, {@code 12,345 rows}
     */
    public static String of(long count, String noun) {
        return String.format(Locale.ROOT, "%,d %s%s", count, noun, count == 1 ? "" : "s");
    }
}
