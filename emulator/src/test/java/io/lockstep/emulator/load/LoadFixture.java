package io.lockstep.emulator.load;

import io.lockstep.emulator.catalog.InMemoryCatalog;
import io.lockstep.emulator.catalog.TableSchema;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Tables and helpers shared by the load tests. */
final class LoadFixture {
    static final InMemoryCatalog CATALOG = new InMemoryCatalog();

    static {
        try {
            CATALOG.execute("""
                    CREATE DATABASE d;
                    CREATE TABLE d.orders (
                      order_id BIGINT NOT NULL,
                      status VARCHAR(8),
                      total DECIMAL(6, 2),
                      created DATETIME
                    ) PRIMARY KEY (order_id);
                    CREATE TABLE d.logs (
                      id INT NOT NULL,
                      level TINYINT NOT NULL,
                      msg STRING DEFAULT 'none'
                    ) DUPLICATE KEY (id);
                    CREATE TABLE d.types (
                      k INT NOT NULL, b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, li LARGEINT,
                      f FLOAT, db DOUBLE, dec DECIMAL(5, 2), c CHAR(3), vc VARCHAR(4), s STRING, dt DATE,
                      ts DATETIME, j JSON
                    ) PRIMARY KEY (k);
                    """);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private LoadFixture() {
    }

    static TableSchema table(String name) {
        return CATALOG.table("d", name).orElseThrow();
    }

    /** Headers from alternating names and values. */
    static Map<String, String> headers(String... namesAndValues) {
        Map<String, String> headers = new HashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return headers;
    }

    static ParsedBatch parse(String table, String body, String... headers) throws LoadFormatException {
        return new StreamLoadBodyParser().parse(table(table), LoadFormat.fromHeaders(headers(headers)),
                body.getBytes(StandardCharsets.UTF_8));
    }

    static List<Object> values(RowChange row) {
        return Arrays.asList(row.values());
    }
}
