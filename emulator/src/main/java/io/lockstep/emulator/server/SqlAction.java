package io.lockstep.emulator.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.http.JsonText;
import io.lockstep.emulator.http.Reply;
import io.lockstep.emulator.http.RestResult;
import io.lockstep.emulator.mysql.CatalogQueries;
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
import java.util.function.Supplier;

/**
 * The StarRocks HTTP SQL API (StarRocks ≥ 3.2): {@code POST /api/v1/catalogs/{catalog}/databases/{db}/sql} (or
 * {@code /api/v1/catalogs/{catalog}/sql}) with body {@code {"query": "..."}} and Basic auth (checked by the
 * dispatcher). Runs SELECT (also {@code WITH}), SHOW, DESC and EXPLAIN, as StarRocks does (FE source
 * {@code fe/fe-core/src/main/java/com/starrocks/http/rest/ExecuteSqlAction.java} takes a query, a {@code ShowStmt}
 * (DESC is one) or KILL; the emulator does not run KILL). SHOW, DESC, EXPLAIN and queries on
 * {@code information_schema} are answered by the query port's own code ({@link CatalogQueries}), so both front ends
 * give the same rows; other SELECTs run on the table store.
 *
 * <p>Reply shapes, as StarRocks sends them (docs {@code docs/en/sql-reference/http_sql_api.md}; FE source
 * {@code http/HttpResultSender.java}, {@code http/JsonSerializer.java}): HTTP 200,
 * {@code Content-Type: application/x-ndjson; charset=utf-8}, header {@code X-StarRocks-Query-Id}, and
 * <ul>
 *   <li>for a SELECT, body lines {@code {"connectionId":N}}, {@code {"meta":[{"name":..,"type":..}]}}, one
 *       {@code {"data":[..]}} per row, {@code {"statistics":{"scanRows":..,"scanBytes":..,"returnRows":..}}};</li>
 *   <li>for SHOW and DESC, one object {@code {"meta":[..],"data":[{"<column>":"<text>",..},..],"statistics":{..}}}
 *       (each row an object of the column labels and their values as text, as {@code ShowResultSet} holds
 *       them);</li>
 *   <li>for EXPLAIN, {@code {"explain":"<plan text>"}}.</li>
 * </ul>
 * Failures before data are {@code {"status":"FAILED","msg":..}} (the FE's {@code RestBaseResult}) with: 400 for a
 * malformed body, an empty query, several statements, a statement other than those above or a catalog other than
 * {@code default_catalog}; 403 for an unknown database ("set catalog or db failed"); 500 for a statement that fails
 * (e.g. an unknown table or column).
 *
 * <p>Lagging follower: {@link #answerStale(int)} makes the next queries answer what the same query text answered
 * last time, as a follower FE that has not replayed the newest commits would. Thread-safe.
 */
public final class SqlAction {
    private static final DateTimeFormatter DATETIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final TableStore store;
    private final Catalog catalog;
    private final Supplier<CatalogQueries> catalogQueries;
    private final AtomicLong connectionIds = new AtomicLong(1);
    private final AtomicInteger staleAnswers = new AtomicInteger();
    /** Last successful reply body per (database, query text), for stale answers. */
    private final Map<String, String> lastReplies = new ConcurrentHashMap<>();

    /**
     * @param catalog the databases that exist
     * @param catalogQueries the query port's SHOW statements and information schema (asked per request)
     */
    public SqlAction(TableStore store, Catalog catalog, Supplier<CatalogQueries> catalogQueries) {
        this.store = store;
        this.catalog = catalog;
        this.catalogQueries = catalogQueries;
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
        Kind kind = switch (first) {
            case "SELECT", "WITH" -> Kind.SELECT;
            case "SHOW", "DESC", "DESCRIBE" -> Kind.SHOW;
            case "EXPLAIN" -> Kind.EXPLAIN;
            default -> null;
        };
        if (kind == null) {
            return RestResult.failed(400, "/api/v2/<catalog_name>/<database_name>/query only support SELECT, SHOW, "
                    + "EXPLAIN, DESC, KILL statement (the emulator does not run KILL)");
        }
        String key = database + "\n" + sql;
        String stale = lastReplies.get(key);
        if (stale != null && staleAnswers.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            return ndjson(stale);
        }
        String reply;
        try {
            reply = switch (kind) {
                case SELECT -> select(sql, database);
                case SHOW -> show(shown(sql, database));
                case EXPLAIN -> explain(shown(sql, database));
            };
        } catch (StoreException | CatalogQueries.QueryException e) {
            return RestResult.failed(500, e.getMessage());
        }
        lastReplies.put(key, reply);
        return ndjson(reply);
    }

    /** What the HTTP SQL API runs, by its reply shape. */
    private enum Kind { SELECT, SHOW, EXPLAIN }

    /** A SELECT: on {@code information_schema} as the query port answers it, else on the table store. */
    private String select(String sql, String database) throws StoreException {
        CatalogQueries.Rows schema = catalogQueries.get().informationSchema(sql, database);
        if (schema != null) {
            return render(schema.columns(), schema.types(), schema.rows());
        }
        QueryResult result = store.query(sql, database);
        return render(result.columns(), result.columnTypes(), result.rows());
    }

    /** A SHOW, DESC or EXPLAIN statement as the query port answers it. */
    private CatalogQueries.Rows shown(String sql, String database) {
        CatalogQueries.Rows rows = catalogQueries.get().show(sql, database, "", (int) connectionIds.get());
        if (rows == null) {
            throw new CatalogQueries.QueryException("the emulator's HTTP SQL API does not run this statement: "
                    + (sql.length() <= 80 ? sql : sql.substring(0, 80) + "..."));
        }
        return rows;
    }

    private Reply ndjson(String body) {
        return new Reply(200, Map.of("X-StarRocks-Query-Id", UUID.randomUUID().toString()), body,
                "application/x-ndjson", false); // the HTTP layer appends "; charset=utf-8"
    }

    /** A SELECT's reply: connectionId, meta, one data line per row, statistics. */
    private String render(List<String> names, List<String> types, List<List<Object>> rows) {
        StringBuilder out = new StringBuilder();
        ObjectNode connection = JsonText.object();
        connection.put("connectionId", connectionIds.getAndIncrement());
        out.append(connection.toString()).append('\n');
        out.append(meta(names, types).toString()).append('\n');
        for (List<Object> row : rows) {
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
        s.put("returnRows", rows.size());
        out.append(statistics.toString()).append('\n');
        return out.toString();
    }

    /**
     * A SHOW or DESC reply, one object as StarRocks' {@code JsonSerializer.getShowResult} writes it: {@code meta},
     * {@code data} (each row an object of column label to value as text) and {@code statistics}.
     */
    private static String show(CatalogQueries.Rows rows) {
        ObjectNode reply = meta(rows.columns(), rows.types());
        ArrayNode data = reply.putArray("data");
        for (List<Object> row : rows.rows()) {
            ObjectNode object = data.addObject();
            for (int i = 0; i < rows.columns().size(); i++) {
                Object v = row.get(i);
                object.put(rows.columns().get(i), v == null ? null : text(v));
            }
        }
        ObjectNode s = reply.putObject("statistics");
        s.put("scanRows", 0);
        s.put("scanBytes", 0);
        s.put("scanPartitions", "");
        s.put("returnRows", rows.rows().size());
        return reply.toString();
    }

    /** An EXPLAIN reply, {@code {"explain":"<plan>"}} as StarRocks' {@code HttpResultSender.sendExplainResult}. */
    private static String explain(CatalogQueries.Rows rows) {
        StringBuilder plan = new StringBuilder();
        for (List<Object> row : rows.rows()) {
            plan.append(row.get(0) == null ? "" : row.get(0).toString()).append('\n');
        }
        ObjectNode reply = JsonText.object();
        reply.put("explain", plan.toString());
        return reply.toString();
    }

    /** {@code {"meta":[{"name":..,"type":..}]}}; a type not known is {@code varchar}. */
    private static ObjectNode meta(List<String> names, List<String> types) {
        ObjectNode meta = JsonText.object();
        ArrayNode columns = meta.putArray("meta");
        for (int i = 0; i < names.size(); i++) {
            ObjectNode column = columns.addObject();
            column.put("name", names.get(i));
            column.put("type", types.get(i) == null ? "varchar" : types.get(i));
        }
        return meta;
    }

    /** A value as a SHOW row holds it: DATETIME as {@code yyyy-MM-dd HH:mm:ss}, DECIMAL plain, others as text. */
    private static String text(Object v) {
        if (v instanceof LocalDateTime time) {
            return DATETIME.format(time);
        }
        if (v instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        if (v instanceof Boolean b) {
            return b ? "1" : "0";
        }
        return v.toString();
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
