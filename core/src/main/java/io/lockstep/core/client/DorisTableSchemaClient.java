package io.lockstep.core.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.time.Ticker;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import javax.annotation.concurrent.ThreadSafe;

/**
 * Reads an Apache Doris table's columns over the FE's HTTP interface: {@code GET /api/{db}/{table}/_schema} with
 * Basic auth, sent to the configured FE addresses like every other call ({@code load-url}, failover, redirects). The
 * Doris FE answers it in {@code fe/fe-core/src/main/java/org/apache/doris/httpv2/rest/TableSchemaAction.java}; the
 * Doris Flink connector reads the same reply ({@code RestService.getSchema}).
 *
 * <p>Reply: HTTP 200 {@code {"msg":"success","code":0,"data":{"properties":[..],"keysType":..,"status":200},..}},
 * each property {@code {"name","type","comment","aggregation_type"}} plus {@code "precision"} and {@code "scale"} (as
 * text) for a DECIMAL; {@code type} is Doris' {@code PrimitiveType} name ({@code INT}, {@code VARCHAR},
 * {@code DATEV2}, {@code DECIMAL64}, ...), so CHAR/VARCHAR lengths and nullability are not in it. A table or
 * database that does not exist answers HTTP 200 with {@code code} 1 and the reason in {@code data}
 * ({@code errCode = 2, detailMessage = Unknown table 't'}); refused credentials or privilege answer HTTP 401/403 or
 * {@code code} 401.
 *
 * <p>Connection failures, replies that are not JSON and HTTP 5xx are retried with the client's bounded backoff (the
 * call changes nothing); any other failure is final. Thread-safe.
 */
@ThreadSafe
public final class DorisTableSchemaClient implements AutoCloseable {
    /** Reads and writes the schema replies; never configured after construction, so thread-safe and shared. */
    private static final ObjectMapper JSON = new ObjectMapper();
    private final LoadEndpoint endpoint;

    /**
     * One column as {@code _schema} describes it.
     *
     * @param name the column name
     * @param type Doris' {@code PrimitiveType} name, e.g. {@code BIGINT}, {@code VARCHAR}, {@code DATETIMEV2},
     *     {@code DECIMAL64}
     * @param precision a DECIMAL's precision, else null
     * @param scale a DECIMAL's scale, else null
     * @param aggregationType {@code ""} for a key column, {@code REPLACE}/{@code NONE}/... for a value column
     */
    public record Column(String name, String type, Integer precision, Integer scale, String aggregationType) {
    }

    /** A client on the system clock. */
    public DorisTableSchemaClient(TransactionClientConfig config, LoadMetrics metrics) {
        this.endpoint = new LoadEndpoint(config, metrics, Ticker.system(), "SELECT privilege on the table");
    }

    /**
     * @return the table's columns, in table order
     * @throws TransactionException naming the table: {@link FailureClass#ACCESS_DENIED} for refused credentials or
     *     privilege, {@link FailureClass#DATA_ERROR} for a database or table that does not exist (the server's
     *     reason in the message), {@link FailureClass#OTHER} for a reply not understood, else the retried class
     *     once retries are spent
     */
    public List<Column> columns(String database, String table) throws TransactionException {
        String path = "/api/" + TransactionHeaders.encode(database) + "/" + TransactionHeaders.encode(table)
                + "/_schema";
        String what = "schema query for table " + database + "." + table;
        RetryBudget budget = endpoint.budget(what);
        return budget.run(() -> endpoint.callRaw("GET", path, Map.of(), null), (StarRocksHttp.HttpReply reply,
                IOException failure) -> {
            if (reply == null) {
                return RetryBudget.retry(FailureClass.CONNECTION, failure.getMessage(), null, failure);
            }
            if (reply.statusCode() >= 500) {
                return RetryBudget.retry(FailureClass.HTTP_5XX, "HTTP " + reply.statusCode() + ": "
                        + reply.preview(300), null, null);
            }
            JsonNode root;
            try {
                root = JSON.readTree(reply.body());
            } catch (IOException e) {
                root = null;
            }
            if (root == null || !root.isObject()) {
                if (reply.statusCode() == 401 || reply.statusCode() == 403) {
                    throw denied(what, "HTTP " + reply.statusCode() + ": " + reply.preview(300));
                }
                return RetryBudget.retry(FailureClass.HTTP_5XX, "HTTP " + reply.statusCode() + " with a non-JSON "
                        + "body: " + reply.preview(300), null, null);
            }
            int code = root.path("code").asInt(-1);
            if (reply.statusCode() == 401 || reply.statusCode() == 403 || code == 401) {
                throw denied(what, "HTTP " + reply.statusCode() + ", code " + code + ": " + root.path("data").asText(
                        root.path("msg").asText()));
            }
            JsonNode data = root.path("data");
            if (reply.statusCode() == 200 && code == 1) {
                throw new TransactionException(what + " failed: " + data.asText(root.path("msg").asText()), null,
                        FailureClass.DATA_ERROR, null);
            }
            JsonNode properties = data.path("properties");
            if (reply.statusCode() != 200 || code != 0 || !properties.isArray()) {
                throw new TransactionException(what + " failed: HTTP " + reply.statusCode() + ", code " + code
                        + ": " + reply.preview(300), null, FailureClass.OTHER, null);
            }
            List<Column> columns = new ArrayList<>();
            for (JsonNode p : properties) {
                columns.add(new Column(p.path("name").asText(), p.path("type").asText(), number(p, "precision"),
                        number(p, "scale"), p.path("aggregation_type").asText("")));
            }
            return RetryBudget.done(Collections.unmodifiableList(columns));
        });
    }

    private TransactionException denied(String what, String detail) {
        return new TransactionException(what + " refused: " + detail + endpoint.accessHint(FailureClass.ACCESS_DENIED),
                null, FailureClass.ACCESS_DENIED, null);
    }

    private static Integer number(JsonNode property, String key) {
        JsonNode value = property.get(key);
        if (value == null || value.isNull() || value.asText().isBlank()) {
            return null;
        }
        try {
            return Integer.valueOf(value.asText().trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public void close() {
        endpoint.close();
    }
}
