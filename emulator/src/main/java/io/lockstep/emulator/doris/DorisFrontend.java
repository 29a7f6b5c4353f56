package io.lockstep.emulator.doris;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.emulator.be.Backend;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.http.BasicAuth;
import io.lockstep.emulator.http.JsonText;
import io.lockstep.emulator.http.Reply;
import io.lockstep.emulator.http.ServerRequest;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the Doris FE answers itself (docs/protocol.md#doris-endpoints-redirects-and-headers, #doris-replies; FE
 * {@code LoadAction}, {@code RestBaseController}, {@code GetStreamLoadState}): the pre-checks and the 307 of
 * {@code _stream_load} and {@code _stream_load_2pc}, {@code get_load_state}, {@code health}, {@code backends} and
 * {@code _schema}.
 * Thread-safe.
 *
 * <p>The 307 {@code Location} is {@code http://[user:password@]beHost:bePort<same path>?<original query>}: the
 * caller's Basic credentials as URL userinfo (percent-encoded) unless turned off, and always a {@code ?}, as the
 * FE copies read build it.
 */
final class DorisFrontend {
    private final Backend be;
    private final Supplier<String> beBaseUrl;
    private final boolean credentialsInLocation;
    private final DorisTableSchema tableSchema;

    /**
     * @param beBaseUrl             {@code http://host:port} of the BE
     * @param credentialsInLocation whether the 307 {@code Location} carries the caller's credentials
     */
    DorisFrontend(Backend backend, Supplier<String> beBaseUrl, boolean credentialsInLocation) {
        this.be = backend;
        this.beBaseUrl = beBaseUrl;
        this.credentialsInLocation = credentialsInLocation;
        this.tableSchema = new DorisTableSchema(backend.catalog());
    }

    /** {@code GET /api/{db}/{table}/_schema} (after authentication): see {@link DorisTableSchema}. */
    Reply tableSchema(String db, String table) {
        return tableSchema.reply(db, table);
    }

    /** The FE's Basic authentication; null when it passes, else the 401 envelope. */
    Reply authenticate(ServerRequest req) {
        BasicAuth.Result auth = be.auth().check(req.header("authorization"));
        return auth.ok() ? null : DorisRestResult.unauthorized(auth.error());
    }

    /** {@code _stream_load} on the FE: {@code Expect} must be present, then 307 to the BE. */
    Reply streamLoad(ServerRequest req) {
        if (req.header("expect") == null) {
            return DorisRestResult.legacyFailed("There is no 100-continue header");
        }
        String groupCommit = req.headerOrEmpty("group_commit");
        if (!groupCommit.isEmpty() && !groupCommit.equals("off_mode") && !groupCommit.equals("sync_mode")
                && !groupCommit.equals("async_mode")) {
            return DorisRestResult.legacyFailed("Header `group_commit` can only be `sync_mode`, `async_mode` or "
                    + "`off_mode`.");
        }
        return redirect(req);
    }

    /** {@code _stream_load_2pc} on the FE: a txn id or a label must be given, then 307 to the BE. */
    Reply twoPhaseCommit(ServerRequest req) {
        if (req.headerOrEmpty("txn_id").isEmpty() && req.headerOrEmpty("label").isEmpty()) {
            return DorisRestResult.legacyFailed("No transaction id or label selected.");
        }
        return redirect(req);
    }

    /**
     * {@code GET /api/{db}/get_load_state?label=L}: {@code data} is the newest transaction's status of the label or
     * {@code UNKNOWN}. A missing label answers code 403; an unknown database code 1 "Error".
     */
    Reply loadState(ServerRequest req, String db) {
        String label = req.query("label");
        if (label == null || label.isBlank()) {
            return DorisRestResult.error("Bad Request", 403, "No label selected");
        }
        if (be.catalog().database(db).isEmpty()) {
            return DorisRestResult.error("Error", 1, "unknown database, database=" + db);
        }
        be.faults().pause(FaultOp.GET_LOAD_STATE);
        DorisTxnStatus status = be.transactions().latest(db, label).map(t -> DorisTxnStatus.of(t.status()))
                .orElse(DorisTxnStatus.UNKNOWN);
        return DorisRestResult.ok(status.name());
    }

    /** {@code GET /api/health}: one live BE. */
    Reply health() {
        ObjectNode data = JsonText.object();
        data.put("online_backend_num", 1);
        data.put("total_backend_num", 1);
        return DorisRestResult.ok(data);
    }

    /**
     * {@code GET /api/backends?is_alive=true}: the one BE, as the Flink connector reads it
     * (docs/protocol.md#doris-endpoints-redirects-and-headers).
     */
    Reply backends() {
        URI be = URI.create(beBaseUrl.get());
        ObjectNode backend = JsonText.object();
        backend.put("ip", be.getHost());
        backend.put("http_port", be.getPort());
        backend.put("is_alive", true);
        ObjectNode data = JsonText.object();
        ArrayNode list = data.putArray("backends");
        list.add(backend);
        return DorisRestResult.ok(data);
    }

    private Reply redirect(ServerRequest req) {
        URI be = URI.create(beBaseUrl.get());
        String userInfo = credentialsInLocation ? userInfo(req.header("authorization")) : "";
        String query = req.rawQuery() == null ? "" : req.rawQuery();
        return new Reply(307, Map.of("Location", "http://" + userInfo + be.getHost() + ":" + be.getPort()
                + req.path() + "?" + query), "", "text/html", false);
    }

    /** {@code user:password@} from a Basic header (percent-encoded), or "" when there is none. */
    private static String userInfo(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return "";
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return "";
        }
        int colon = decoded.indexOf(':');
        String user = colon < 0 ? decoded : decoded.substring(0, colon);
        String password = colon < 0 ? "" : decoded.substring(colon + 1);
        return encode(user) + ":" + encode(password) + "@";
    }

    private static String encode(String part) {
        return URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
