package io.lockstep.core.client;

import io.lockstep.core.time.Ticker;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.core.metrics.LoadMetrics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.annotation.concurrent.ThreadSafe;

/**
 * Reads through the StarRocks HTTP SQL API (StarRocks ≥ 3.2): {@code POST
 * /api/v1/catalogs/default_catalog/databases/{db}/sql} with body {@code {"query": "SELECT ..."}}, Basic auth, sent to
 * the configured FE addresses like every other call ({@code load-url}, failover, redirects).
 *
 * <p>Reply (StarRocks docs {@code docs/en/sql-reference/http_sql_api.md}; FE source
 * {@code fe/fe-core/src/main/java/com/starrocks/http/rest/ExecuteSqlAction.java}): HTTP 200 and newline-delimited
 * JSON, one object per line: {@code {"connectionId":N}}, {@code {"meta":[{"name":..,"type":..},..]}}, one
 * {@code {"data":[..]}} per row, then {@code {"statistics":{..}}}. A failure before any data is a non-200 status
 * (400 bad request, 403 unknown database, 500 query error, 503 no service) with {@code {"status":"FAILED","msg":..}};
 * a failure after data was sent closes the connection, so a reply without the {@code statistics} line is treated as
 * broken, never as a complete result.
 *
 * <p>Only SELECT statements are sent (checked here). Connection failures, truncated replies and 503 are retried with
 * the client's bounded backoff (a SELECT changes nothing); any other failure is final. Thread-safe.
 */
@ThreadSafe
public final class StarRocksSqlClient implements AutoCloseable {
    /** Reads and writes the SQL API's requests and result lines; never configured after construction, so thread-safe and shared. */
    private static final ObjectMapper JSON = new ObjectMapper();
    private final LoadEndpoint endpoint;

    /** A client on the system clock. */
    public StarRocksSqlClient(TransactionClientConfig config, LoadMetrics metrics) {
        this(config, metrics, Ticker.system());
    }

    /** @param ticker clock and sleep of the retry backoff (tests pass a fake) */
    public StarRocksSqlClient(TransactionClientConfig config, LoadMetrics metrics, Ticker ticker) {
        this.endpoint = new LoadEndpoint(config, metrics, ticker, "SELECT privilege on the table");
    }

    /**
     * Runs one SELECT in {@code database}.
     *
     * @param sql one SELECT statement (no trailing {@code ;} needed)
     * @return columns and rows
     * @throws IllegalArgumentException if {@code sql} is not a SELECT
     * @throws TransactionException     naming the database, the HTTP status and the server's {@code msg}, or the
     *                                  broken reply, once retries are spent
     */
    public SqlResult select(String database, String sql) throws TransactionException {
        if (!sql.strip().toUpperCase(Locale.ROOT).startsWith("SELECT")) {
            throw new IllegalArgumentException("only SELECT statements are sent through the HTTP SQL API, got: "
                    + sql.strip().split("\\s+", 2)[0]);
        }
        String path = "/api/v1/catalogs/default_catalog/databases/" + TransactionHeaders.encode(database) + "/sql";
        ObjectNode request = JSON.createObjectNode();
        request.put("query", sql);
        byte[] body = request.toString().getBytes(StandardCharsets.UTF_8);
        String what = "SQL query in database " + database;
        RetryBudget budget = endpoint.budget(what);
        return budget.run(() -> endpoint.callRaw("POST", path, Map.of("Content-Type", "application/json"), body),
                (StarRocksHttp.HttpReply reply, IOException failure) -> {
                    if (reply == null) {
                        return RetryBudget.retry(FailureClass.CONNECTION, failure.getMessage(), null, failure);
                    }
                    if (reply.statusCode() == 503) {
                        return RetryBudget.retry(FailureClass.HTTP_5XX, "HTTP 503: " + reply.preview(300), null,
                                null);
                    }
                    if (reply.statusCode() != 200) {
                        // a final answer: 401 refused credentials, 403 a database the user cannot use (StarRocks
                        // answers an unknown one with "set catalog or db failed"), 400/500 a query that cannot run
                        FailureClass failureClass = reply.statusCode() == 401 || reply.statusCode() == 403
                                ? FailureClass.ACCESS_DENIED : FailureClass.OTHER;
                        String hint = reply.statusCode() == 401 ? endpoint.accessHint(FailureClass.ACCESS_DENIED)
                                : reply.statusCode() == 403 ? " (database '" + database + "' does not exist, or the "
                                        + "user may not use it)" : "";
                        throw new TransactionException(what + " failed: HTTP " + reply.statusCode() + ": "
                                + failureMessage(reply) + hint + " [query: " + sql + "]", null, failureClass, null);
                    }
                    try {
                        return RetryBudget.done(parse(reply.body()));
                    } catch (BrokenReply e) {
                        return RetryBudget.retry(FailureClass.CONNECTION, what + ": " + e.getMessage(), null, null);
                    }
                });
    }

    private String failureMessage(StarRocksHttp.HttpReply reply) {
        try {
            JsonNode node = JSON.readTree(reply.body());
            if (node != null && node.hasNonNull("msg")) {
                return node.get("msg").asText();
            }
        } catch (IOException e) {
            // not JSON: show the text
        }
        return reply.preview(300);
    }

    /** Parses the newline-delimited JSON reply. */
    SqlResult parse(byte[] body) throws BrokenReply {
        List<SqlColumn> columns = null;
        List<List<Object>> rows = new ArrayList<>();
        boolean statistics = false;
        String text = new String(body, StandardCharsets.UTF_8);
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode node;
            try {
                node = JSON.readTree(line);
            } catch (IOException e) {
                throw new BrokenReply("a reply line is not JSON: " + abbreviate(line));
            }
            if (node.has("meta")) {
                columns = new ArrayList<>();
                for (JsonNode c : node.get("meta")) {
                    columns.add(new SqlColumn(c.path("name").asText(), c.path("type").asText()));
                }
            } else if (node.has("data")) {
                List<Object> row = new ArrayList<>();
                for (JsonNode v : node.get("data")) {
                    row.add(value(v));
                }
                rows.add(Collections.unmodifiableList(row));
            } else if (node.has("statistics")) {
                statistics = true;
            } else if ("FAILED".equals(node.path("status").asText())) {
                throw new BrokenReply("the server failed mid-reply: " + node.path("msg").asText());
            }
        }
        if (columns == null || !statistics) {
            throw new BrokenReply("the reply ended before its " + (columns == null ? "meta" : "statistics")
                    + " line (" + rows.size() + " data lines read): the connection closed mid-reply");
        }
        return new SqlResult(Collections.unmodifiableList(columns), Collections.unmodifiableList(rows));
    }

    private static Object value(JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        if (v.isIntegralNumber()) {
            return v.canConvertToLong() ? (Object) v.asLong() : v.bigIntegerValue();
        }
        if (v.isNumber()) {
            return v.decimalValue();
        }
        if (v.isBoolean()) {
            return v.asBoolean();
        }
        return v.isTextual() ? v.asText() : v.toString();
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }

    @Override
    public void close() {
        endpoint.close();
    }

    /** A reply that is not a complete result (cut off, not JSON). */
    static final class BrokenReply extends Exception {
        private static final long serialVersionUID = 1L;

        BrokenReply(String message) {
            super(message, null, false, false);
        }
    }
}
