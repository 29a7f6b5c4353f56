package io.lockstep.bench;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A wide-ish CDC row as a Debezium {@code after} image becomes one JSON object: table {@code bench.orders_wide}, 18
 * columns of the usual kinds (BIGINT keys, INT, DECIMAL amounts, BOOLEAN, DATE, DATETIME with microseconds, short
 * codes, an e-mail, a city, a free-text note of varying length, a DOUBLE, a NULL now and then), ~450 B of JSON per row.
 * Values come from a seeded generator over small vocabularies and numeric ranges, so the rows compress about as real
 * order rows do (not as a repeated filler would). Text never holds a tab or a line feed: the same rows load as CSV
 * with the default separators. A fixed pool of pre-built rows, reused round-robin, so building rows costs the measured
 * code nothing; ids repeat every {@code size} rows (the {@code none} store counts every row).
 */
final class WideCdcRows {
    /** The table, in {@link BenchTables#DATABASE}. */
    static final String TABLE = "orders_wide";
    private static final String[] STATUSES = {"NEW", "PAID", "PACKED", "SHIPPED", "DELIVERED", "CANCELLED",
        "REFUNDED"};
    private static final String[] CURRENCIES = {"EUR", "USD", "GBP", "CHF", "SEK"};
    private static final String[] CITIES = {"Amsterdam", "Berlin", "Lisbon", "Madrid", "Paris", "Rome", "Vienna",
        "Warsaw", "Prague", "Dublin", "Oslo", "Helsinki", "Zurich", "Brussels", "Copenhagen", "Athens"};
    private static final String[] COUNTRIES = {"NL", "DE", "PT", "ES", "FR", "IT", "AT", "PL", "CZ", "IE", "NO", "FI",
        "CH", "BE", "DK", "GR"};
    private static final String[] DOMAINS = {"example.com", "mail.example.org", "shop.example.net", "corp.example"};
    private static final String[] WORDS = {"please", "leave", "the", "parcel", "at", "door", "ring", "twice", "gift",
        "wrap", "call", "before", "delivery", "fragile", "handle", "with", "care", "back", "entrance", "neighbour"};
    private static final String[] CHANNELS = {"web", "ios", "android", "store", "phone"};

    private final byte[][] rows;
    private final long totalBytes;

    /** {@code size} rows drawn from a random generator started at {@code seed}, so every run sends the same rows. */
    WideCdcRows(int size, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        rows = new byte[size][];
        long total = 0;
        for (int i = 0; i < size; i++) {
            rows[i] = row(i, random).getBytes(StandardCharsets.UTF_8);
            total += rows[i].length;
        }
        totalBytes = total;
    }

    /** DDL creating database {@code bench} and {@link #TABLE} (PRIMARY KEY on {@code id}). */
    static String ddl() {
        return "CREATE DATABASE " + BenchTables.DATABASE + ";\n"
                + "CREATE TABLE " + BenchTables.DATABASE + "." + TABLE + " (id BIGINT NOT NULL, customer_id BIGINT, "
                + "status VARCHAR(16), currency VARCHAR(3), amount DECIMAL(12,2), tax DECIMAL(12,2), quantity INT, "
                + "is_gift BOOLEAN, order_date DATE, created_at DATETIME, updated_at DATETIME, email VARCHAR(128), "
                + "city VARCHAR(64), country VARCHAR(2), sales_channel VARCHAR(16), note VARCHAR(512), "
                + "weight_kg DOUBLE, row_version INT) PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 4;\n";
    }

    /** The row at {@code n} modulo the pool size. */
    byte[] get(long n) {
        return rows[(int) (n % rows.length)];
    }

    /** Average row length, bytes. */
    int averageBytes() {
        return (int) (totalBytes / rows.length);
    }

    private static String row(long id, SplittableRandom r) {
        long customer = 100_000 + r.nextInt(50_000);
        int cents = 500 + r.nextInt(250_000);
        int day = 1 + r.nextInt(28);
        int month = 1 + r.nextInt(12);
        String created = String.format(Locale.ROOT, "2026-%02d-%02d %02d:%02d:%02d.%06d", month, day, r.nextInt(24),
                r.nextInt(60), r.nextInt(60), r.nextInt(1_000_000));
        String updated = String.format(Locale.ROOT, "2026-%02d-%02d %02d:%02d:%02d.%06d", month, day, r.nextInt(24),
                r.nextInt(60), r.nextInt(60), r.nextInt(1_000_000));
        int city = r.nextInt(CITIES.length);
        StringBuilder note = new StringBuilder();
        int words = r.nextInt(4) == 0 ? 0 : 3 + r.nextInt(14);
        for (int w = 0; w < words; w++) {
            note.append(w == 0 ? "" : " ").append(WORDS[r.nextInt(WORDS.length)]);
        }
        return "{\"id\":" + id
                + ",\"customer_id\":" + customer
                + ",\"status\":\"" + STATUSES[r.nextInt(STATUSES.length)] + '"'
                + ",\"currency\":\"" + CURRENCIES[r.nextInt(CURRENCIES.length)] + '"'
                + ",\"amount\":" + cents / 100 + "." + String.format(Locale.ROOT, "%02d", cents % 100)
                + ",\"tax\":" + cents / 500 + "." + String.format(Locale.ROOT, "%02d", cents / 5 % 100)
                + ",\"quantity\":" + (1 + r.nextInt(9))
                + ",\"is_gift\":" + (r.nextInt(10) == 0)
                + ",\"order_date\":\"" + String.format(Locale.ROOT, "2026-%02d-%02d", month, day) + '"'
                + ",\"created_at\":\"" + created + '"'
                + ",\"updated_at\":\"" + updated + '"'
                + ",\"email\":\"customer" + customer + "@" + DOMAINS[r.nextInt(DOMAINS.length)] + '"'
                + ",\"city\":\"" + CITIES[city] + '"'
                + ",\"country\":\"" + COUNTRIES[city] + '"'
                + ",\"sales_channel\":\"" + CHANNELS[r.nextInt(CHANNELS.length)] + '"'
                + ",\"note\":" + (words == 0 ? "null" : "\"" + note + '"')
                + ",\"weight_kg\":" + (r.nextInt(20) == 0 ? "null" : String.valueOf(r.nextInt(30_000) / 1000.0))
                + ",\"row_version\":" + (1 + r.nextInt(5)) + "}";
    }
}
