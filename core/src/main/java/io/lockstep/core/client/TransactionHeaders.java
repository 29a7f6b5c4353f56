package io.lockstep.core.client;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The protocol headers of transaction operations (docs/protocol.md#starrocks-transaction-stream-load) and URL encoding
 * of path parts.
 */
final class TransactionHeaders {
    private TransactionHeaders() {
    }

    /**
     * {@code label}, {@code db}, and {@code table} (single-table) or {@code transaction_type: multi} plus the
     * load's {@code table} when given (multi-table; begin, commit and rollback carry no table).
     */
    static Map<String, String> forTransaction(TransactionRef txn, String loadTable) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("label", txn.label());
        headers.put("db", txn.database());
        if (txn.multiTable()) {
            headers.put("transaction_type", "multi");
            if (loadTable != null) {
                headers.put("table", loadTable);
            }
        } else {
            headers.put("table", txn.table());
        }
        return headers;
    }

    /** Headers the client sets itself; same-named load properties are ignored. */
    static boolean isProtocolHeader(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.equals("label") || lower.equals("db") || lower.equals("table")
                || lower.equals("transaction_type") || lower.equals("authorization");
    }

    /** URL-encodes a path segment or query value (database, table, label). */
    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
