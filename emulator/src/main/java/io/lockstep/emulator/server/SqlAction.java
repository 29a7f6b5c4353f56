package io.lockstep.emulator.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.http.JsonText;
import io.lockstep.emulator.http.Reply;
import io.lockstep.emulator.http.RestResult;
import io.lockstep.emulator.storage.QueryResult;
import io.lockstep.emulator.storage.StoreException;
import io.lockstep.emulator.storage.TableStore;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The StarRocks HTTP SQL API (StarRocks ≥ 3.2), SELECT only: {@code POST /api/v1/catalogs/{catalog}/databases/{db}/sql}
 * (or {@code /api/v1/catalogs/{catalog}/sql}) with body {@code {"query": "SELECT ..."}} and Basic auth (checked by the
 * dispatcher).
 *
 * <p>Reply shape, as StarRocks sends it (docs {@code docs/en/sql-reference/http_sql_api.md}; FE source
 * {@code fe/fe-core/src/main/java/com/starrocks/http/rest/ExecuteSqlAction.java}): HTTP 200,
 * {@code Content-Type: application/x-ndjson; charset=utf-8}, header {@code X-StarRocks-Query-Id}, body lines
 * {@code {"connectionId":N}}, {@code {"meta":[{"name":..,"type":..}]}}, one {@code {"data":[..]}} per row,
 * {@code {"statistics":{"scanRows":..,"scanBytes":..,"returnRows":..}}}. Failures before data are
 * {@code {"status":"FAILED","msg":..}} (the FE's {@code RestBaseResult}) with: 400 for a malformed body, an empty
 * query, several statements, a statement other than SELECT (StarRocks also runs SHOW, EXPLAIN, DESC and KILL; the
 * emulator does not) or a catalog other than {@code default_catalog}; 403 for an unknown database ("set catalog or db
 * failed"); 500 for a query that fails (e.g. an unknown table or column).
 *
 * <p>Lagging follower: {@link #answerStale(int)} makes the next queries answer what the same query text answered
 * last time, as a follower FE that has not replayed the newest commits would. Thread-safe.
 */
public final class SqlAction {
    private static final DateTimeFormatter DATETIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final TableStore store;
    private final Catalog catalog;
    private final AtomicLong connectionIds = new AtomicLong(1);
    private final AtomicInteger staleAnswers = new AtomicInteger();
    /** Last successful reply body per (database, query text), for stale answers. */
    private final Map<String, String> lastReplies = new ConcurrentHashMap<>();

    /** @param catalog the databases that exist */
    public SqlAction(TableStore store, Catalog catalog) {
        this.store = store;
        this.catalog = catalog;
    }

    /**
     * Makes the next {@code queries} queries that were asked before answer what the same (database, query text)
     * answered the last time it succeeded, as a lagging follower FE (a query text never asked answers normally and
     * does not count).
     */
    public void answerStale(int queries) {
        staleAnswers.set(queries);
    }

    /** Runs one request; never throws. */
    public Reply execute(String catalogName, String database, byte[] body) {
        if (!"default_catalog".equals(catalogName)) {
            return RestResult.failed(400, "only support default_catalog right now");
        }
        if (database != null && catalog.database(database).isEmpty()) {
            return RestResult.failed(403, "set catalog or db failed");
        }
        String query;
        try {
            JsonNode request = JSON.readTree(body);
            query = request == null || !request.hasNonNull("query") ? null : request.get("query").asText();
        } catch (IOException e) {
            return RestResult.failed(400, "malformed json [ " + new String(body, StandardCharsets.UTF_8) + " ]");
        }
        if (query == null || query.isBlank()) {
            return RestResult.failed(400, "\"query can not be empty\"");
        }
        String sql = query.strip();
        if (sql.endsWith(";")) {
            sql = sql.substring(0, sql.length() - 1).strip();
        }
        if (sql.contains(";")) {
            return RestResult.failed(400, "/api/v2/<catalog_name>/<database_name>/query does not support execute "
                    + "multiple query");
        }
        String first = sql.split("[\\s(]+", 2)[0].toUpperCase(Locale.ROOT);
        if (!first.equals("SELECT") && !first.equals("WITH")) {
            return RestResult.failed(400, "/api/v2/<catalog_name>/<database_name>/query only support SELECT, SHOW, "
                    + "EXPLAIN, DESC, KILL statement (the emulator answers SELECT only)");
        }
        String key = database + "\n" + sql;
        String stale = lastReplies.get(key);
        if (stale != null && staleAnswers.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            return ndjson(stale);
        }
        QueryResult result;
        try {
            result = store.query(sql, database);
        } catch (StoreException e) {
            return RestResult.failed(500, e.getMessage());
        }
        String reply = render(result);
        lastReplies.put(key, reply);
        return ndjson(reply);
    }

    private Reply ndjson(String body) {
        return new Reply(200, Map.of("X-StarRocks-Query-Id", UUID.randomUUID().toString()), body,
                "application/x-ndjson", false); // the HTTP layer appends "; charset=utf-8"
    }

    private String render(QueryResult result) {
        StringBuilder out = new StringBuilder();
        ObjectNode connection = JsonText.object();
        connection.put("connectionId", connectionIds.getAndIncrement());
        out.append(connection.toString()).append('\n');
        ObjectNode meta = JsonText.object();
        ArrayNode columns = meta.putArray("meta");
        for (int i = 0; i < result.columns().size(); i++) {
            ObjectNode column = columns.addObject();
            column.put("name", result.columns().get(i));
            column.put("type", result.columnTypes().get(i));
        }
        out.append(meta.toString()).append('\n');
        for (List<Object> row : result.rows()) {
            ObjectNode data = JsonText.object();
            ArrayNode values = data.putArray("data");
            for (Object v : row) {
                addValue(values, v);
            }
            out.append(data.toString()).append('\n');
        }
        ObjectNode statistics = JsonText.object();
        ObjectNode s = statistics.putObject("statistics");
        s.put("scanRows", 0);
        s.put("scanBytes", 0);
        s.put("returnRows", result.rows().size());
        out.append(statistics.toString()).append('\n');
        return out.toString();
    }

    /** Numbers as JSON numbers, DATETIME as {@code yyyy-MM-dd HH:mm:ss}, DECIMAL as text (as StarRocks prints it). */
    private static void addValue(ArrayNode row, Object v) {
        if (v == null) {
            row.addNull();
        } else if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            row.add(((Number) v).intValue());
        } else if (v instanceof Long) {
            row.add((Long) v);
        } else if (v instanceof BigDecimal) {
            row.add(((BigDecimal) v).toPlainString());
        } else if (v instanceof BigInteger) {
            row.add((BigInteger) v);
        } else if (v instanceof Double || v instanceof Float) {
            row.add(((Number) v).doubleValue());
        } else if (v instanceof Boolean) {
            row.add((Boolean) v ? 1 : 0);
        } else if (v instanceof LocalDateTime) {
            row.add(DATETIME.format((LocalDateTime) v));
        } else if (v instanceof LocalDate) {
            row.add(v.toString());
        } else {
            row.add(v.toString());
        }
    }
}
