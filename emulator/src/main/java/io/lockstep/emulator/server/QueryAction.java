package io.lockstep.emulator.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.emulator.http.JsonText;
import io.lockstep.emulator.http.Reply;
import io.lockstep.emulator.http.RestResult;
import io.lockstep.emulator.storage.QueryResult;
import io.lockstep.emulator.storage.StoreException;
import io.lockstep.emulator.storage.TableStore;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * {@code POST /api/query}: body = one read-only SQL statement (SELECT or WITH ... SELECT, one optional trailing
 * {@code ;}); reply {@code {"columns":[...],"rows":[[...]]}}. Anything else, and a body holding more than one
 * statement, is answered FAILED without running. Not a StarRocks endpoint: it lets tests read committed data over
 * HTTP. Thread-safe.
 */
public final class QueryAction {
    private static final List<String> READ_ONLY = List.of("SELECT", "WITH");

    /** StarRocks prints DATETIME as {@code 2024-01-01 00:00:00}. */
    private static final DateTimeFormatter DATETIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final TableStore store;

    /** @param store the committed data */
    public QueryAction(TableStore store) {
        this.store = store;
    }

    /** Runs one read-only statement; never throws (errors become FAILED replies). */
    public Reply query(String sql) {
        String trimmed = sql.strip();
        int separator = statementSeparator(trimmed);
        if (separator >= 0) {
            if (!trimmed.substring(separator + 1).isBlank()) {
                return RestResult.failed("Only one SQL statement per query is allowed; found more after the ';' at "
                        + "character " + (separator + 1));
            }
            trimmed = trimmed.substring(0, separator).strip();
        }
        String first = trimmed.replaceFirst("^[\\s(]+", "").split("[\\s(]+", 2)[0].toUpperCase(Locale.ROOT);
        if (trimmed.isEmpty() || !READ_ONLY.contains(first)) {
            return RestResult.failed("Only read-only queries (" + String.join(", ", READ_ONLY)
                    + ") are allowed, got: " + (first.isEmpty() ? "an empty body" : first));
        }
        QueryResult result;
        try {
            result = store.query(trimmed);
        } catch (StoreException e) {
            return RestResult.failed(e.getMessage());
        }
        ObjectNode json = JsonText.object();
        ArrayNode columns = json.putArray("columns");
        result.columns().forEach(columns::add);
        ArrayNode rows = json.putArray("rows");
        for (List<Object> row : result.rows()) {
            ArrayNode r = rows.addArray();
            for (Object v : row) {
                addValue(r, v);
            }
        }
        return Reply.json(JsonText.write(json));
    }

    /** Index of the first {@code ;} outside quotes and comments, or -1. */
    private static int statementSeparator(String sql) {
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = sql.indexOf(c, i + 1);
                i = end < 0 ? sql.length() : end + 1;
            } else if (sql.startsWith("--", i)) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? sql.length() : end + 1;
            } else if (sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? sql.length() : end + 2;
            } else if (c == ';') {
                return i;
            } else {
                i++;
            }
        }
        return -1;
    }

    private static void addValue(ArrayNode row, Object v) {
        if (v == null) {
            row.addNull();
        } else if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            row.add(((Number) v).intValue());
        } else if (v instanceof Long) {
            row.add((Long) v);
        } else if (v instanceof BigDecimal) {
            row.add((BigDecimal) v);
        } else if (v instanceof BigInteger) {
            row.add((BigInteger) v);
        } else if (v instanceof Double || v instanceof Float) {
            row.add(((Number) v).doubleValue());
        } else if (v instanceof Boolean) {
            row.add((Boolean) v);
        } else if (v instanceof LocalDateTime) {
            row.add(DATETIME.format((LocalDateTime) v));
        } else if (v instanceof Timestamp) {
            row.add(DATETIME.format(((Timestamp) v).toLocalDateTime()));
        } else {
            row.add(v.toString());
        }
    }
}
