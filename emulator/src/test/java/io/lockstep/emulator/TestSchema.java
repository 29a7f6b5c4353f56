package io.lockstep.emulator;

import java.util.LinkedHashMap;
import java.util.Map;

/** The schema and header helpers the HTTP tests share. */
final class TestSchema {
    static final String DDL = """
            CREATE DATABASE IF NOT EXISTS shop;
            CREATE TABLE shop.orders (
              order_id BIGINT NOT NULL,
              status VARCHAR(32),
              total DECIMAL(12, 2)
            ) PRIMARY KEY (order_id)
            DISTRIBUTED BY HASH(order_id) BUCKETS 1;
            CREATE TABLE shop.order_items (
              order_id BIGINT NOT NULL,
              line_no INT NOT NULL,
              sku VARCHAR(64)
            ) PRIMARY KEY (order_id, line_no)
            DISTRIBUTED BY HASH(order_id) BUCKETS 1;
            CREATE DATABASE IF NOT EXISTS other;
            CREATE TABLE other.events (
              id BIGINT NOT NULL,
              kind VARCHAR(16)
            ) DUPLICATE KEY (id)
            DISTRIBUTED BY HASH(id) BUCKETS 1;
            """;

    private TestSchema() {
    }

    /** Ordered header map from name/value pairs. */
    static Map<String, String> h(String... nameValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            m.put(nameValues[i], nameValues[i + 1]);
        }
        return m;
    }

    /** Single-table headers for shop.orders. */
    static Map<String, String> orders(String label, String... more) {
        Map<String, String> m = h("label", label, "db", "shop", "table", "orders");
        m.putAll(h(more));
        return m;
    }

    /** JSON load headers for shop.orders. */
    static Map<String, String> ordersJson(String label) {
        return orders(label, "format", "json", "strip_outer_array", "true");
    }

    /** Multi-table headers. */
    static Map<String, String> multi(String label, String... more) {
        Map<String, String> m = h("label", label, "db", "shop", "transaction_type", "multi");
        m.putAll(h(more));
        return m;
    }

    /** JSON rows for shop.orders with ids from..to inclusive. */
    static String orderRows(int from, int to) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = from; i <= to; i++) {
            if (i > from) {
                sb.append(',');
            }
            sb.append("{\"order_id\":").append(i).append(",\"status\":\"new\",\"total\":").append(i).append(".50}");
        }
        return sb.append(']').toString();
    }
}
