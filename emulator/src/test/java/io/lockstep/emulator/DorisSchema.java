package io.lockstep.emulator;

import java.util.LinkedHashMap;
import java.util.Map;

/** The Doris DDL and header helpers the Doris-mode HTTP tests share. */
final class DorisSchema {
    static final String DDL = """
            CREATE DATABASE IF NOT EXISTS shop;
            CREATE TABLE IF NOT EXISTS shop.orders (
              `order_id` BIGINT NOT NULL COMMENT 'id',
              `status` VARCHAR(32),
              `total` DECIMAL(12, 2)
            ) ENGINE=OLAP
            UNIQUE KEY(`order_id`)
            COMMENT 'orders'
            DISTRIBUTED BY HASH(`order_id`) BUCKETS 1
            PROPERTIES ("replication_num" = "1", "enable_unique_key_merge_on_write" = "true");
            CREATE TABLE shop.events (
              id BIGINT NOT NULL,
              kind VARCHAR(16)
            ) DUPLICATE KEY(id)
            DISTRIBUTED BY HASH(id) BUCKETS 3
            PROPERTIES ("replication_allocation" = "tag.location.default: 1");
            CREATE DATABASE other;
            CREATE TABLE other.events (id BIGINT NOT NULL, kind VARCHAR(16)) DUPLICATE KEY(id)
            DISTRIBUTED BY HASH(id) BUCKETS 1;
            """;

    private DorisSchema() {
    }

    /** Ordered header map from name/value pairs. */
    static Map<String, String> h(String... nameValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            m.put(nameValues[i], nameValues[i + 1]);
        }
        return m;
    }

    /** CSV rows {@code id,kind} for shop.events with ids from..to inclusive, comma separated. */
    static String eventRows(int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i <= to; i++) {
            sb.append(i).append(",k").append(i).append('\n');
        }
        return sb.toString();
    }

    /** Load headers: label, comma separator, plus more pairs. */
    static Map<String, String> csv(String label, String... more) {
        Map<String, String> m = h("label", label, "column_separator", ",");
        m.putAll(h(more));
        return m;
    }

    /** Load headers for a 2PC load. */
    static Map<String, String> twoPc(String label, String... more) {
        Map<String, String> m = csv(label, "two_phase_commit", "true");
        m.putAll(h(more));
        return m;
    }
}
