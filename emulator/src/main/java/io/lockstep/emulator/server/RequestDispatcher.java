package io.lockstep.emulator.server;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.fe.FeDecision;
import io.lockstep.emulator.fe.FeRestActions;
import io.lockstep.emulator.http.BasicAuth;
import io.lockstep.emulator.http.BeResult;
import io.lockstep.emulator.http.JsonText;
import io.lockstep.emulator.http.Reply;
import io.lockstep.emulator.http.RestResult;
import io.lockstep.emulator.http.Route;
import io.lockstep.emulator.http.ServerRequest;
import io.lockstep.emulator.http.WebUiPage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes one request of one listener role to the FE or BE services (docs/protocol.md): the FE authenticates, validates
 * and then answers, executes, or — in redirect mode — answers 307 with
 * {@code Location: http://host:bePort/<same path and query>} without reading the body; the BE executes. In direct mode
 * the FE executes BE work in-process. Faults are applied once, where a request executes. Logs one INFO line per request
 * with the HTTP code and the reply's {@code Status}/{@code status} (never the Authorization header, the message or row
 * data). Thread-safe.
 */
public final class RequestDispatcher implements RequestHandler {
    private static final Logger LOG = LoggerFactory.getLogger(RequestDispatcher.class);

    /** Which listener this dispatcher serves. */
    public enum Role { FE, BE }

    private final Role role;
    private final boolean redirect;
    private final ServerParts parts;
    private final Supplier<String> beBaseUrl;

    /**
     * @param redirect  FE only: answer BE work with 307 (true) or execute it in-process (false)
     * @param beBaseUrl {@code http://host:bePort} for redirects
     */
    public RequestDispatcher(Role role, boolean redirect, ServerParts parts, Supplier<String> beBaseUrl) {
        this.role = role;
        this.redirect = redirect;
        this.parts = parts;
        this.beBaseUrl = beBaseUrl;
    }

    /** Handles one request; never throws. A reply with HTTP status 0 means "drop the connection mid-body". */
    @Override
    public Reply dispatch(ServerRequest req) {
        long startNs = System.nanoTime();
        Reply reply;
        try {
            parts.tick();
            reply = role == Role.FE ? dispatchFe(req) : dispatchBe(req);
        } catch (RuntimeException e) {
            LOG.error("{} {} {} failed unexpectedly", role, req.method(), req.path(), e);
            reply = RestResult.failed(500, "Internal error: " + e.getClass().getName() + ": " + e.getMessage());
        }
        if (LOG.isInfoEnabled()) {
            LOG.info("{} {} {} label={} -> {}{} {}ms", role, req.method(), req.path(), labelOf(req),
                    reply.httpStatus(), replyStatusOf(reply), (System.nanoTime() - startNs) / 1_000_000);
        }
        return reply;
    }

    private Reply dispatchFe(ServerRequest req) {
        Route route = Route.parse(req.path());
        String m = req.method();
        switch (route.kind()) {
            case ROOT:
                return "GET".equals(m) ? WebUiPage.reply("StarRocks", "FE") : notImplemented();
            case HEALTH:
                return "GET".equals(m) ? FeRestActions.feHealth() : notImplemented();
            case ERROR_LOG:
                return "GET".equals(m) ? errorLog(req) : notImplemented();
            case UNKNOWN:
                return notImplemented();
            default:
                break;
        }
        if (!allowedOnFe(route.kind(), m)) {
            return notImplemented();
        }
        BasicAuth.Result auth = parts.backend.auth().check(req.header("authorization"));
        if (!auth.ok()) {
            return RestResult.unauthorized(auth.error());
        }
        switch (route.kind()) {
            case QUERY:
                return query(req);
            case SQL:
                return sql(req, route);
            case FAULT:
                return parts.faultAdmin.handle(route.op(), req);
            case TRANSACTION:
                return act(parts.feTransactions.decide(route.op(), req), req, route);
            case STREAM_LOAD:
                return act(parts.feRest.streamLoad(req, route.db(), route.table()), req, route);
            case LOAD_STATE:
                return act(parts.feRest.loadState(req, route.db()), req, route);
            case CANCEL:
                return act(parts.feRest.cancel(req, route.db()), req, route);
            default:
                return notImplemented();
        }
    }

    private Reply act(FeDecision decision, ServerRequest req, Route route) {
        if (decision instanceof FeDecision.Answer a) {
            FaultOp op = faultOpOf(route);
            return op == null ? a.reply() : withFaults(op, a::reply);
        }
        if (decision instanceof FeDecision.Forward f) {
            if (redirect) {
                return Reply.redirect(beBaseUrl.get() + req.pathAndQuery());
            }
            return withFaults(f.op(), () -> executeOnBe(f.op(), req, route));
        }
        FeDecision.Execute e = (FeDecision.Execute) decision;
        return withFaults(e.op(), e.action());
    }

    private Reply dispatchBe(ServerRequest req) {
        Route route = Route.parse(req.path());
        String m = req.method();
        switch (route.kind()) {
            case ROOT:
                return "GET".equals(m) ? WebUiPage.reply("StarRocks", "BE") : notFound();
            case HEALTH:
                return "GET".equals(m) ? FeRestActions.beHealth() : notFound();
            case ERROR_LOG:
                return "GET".equals(m) ? errorLog(req) : notFound();
            case STREAM_LOAD:
                return "PUT".equals(m) ? withFaults(FaultOp.STREAM_LOAD, () -> executeOnBe(FaultOp.STREAM_LOAD,
                        req, route)) : notFound();
            case TRANSACTION:
                break;
            default:
                return notFound();
        }
        if (!"POST".equals(m) && !"PUT".equals(m)) {
            return notFound();
        }
        FaultOp op;
        switch (route.opLower()) {
            case "begin": op = FaultOp.BEGIN; break;
            case "prepare": op = FaultOp.PREPARE; break;
            case "commit": op = FaultOp.COMMIT; break;
            case "rollback": op = FaultOp.ROLLBACK; break;
            case "list":
                return "POST".equals(m) ? parts.transactionList.list() : notFound();
            case "load":
                if (!"PUT".equals(m)) {
                    return BeResult.error(BeResult.INVALID_ARGUMENT, "Unsupported transaction operation: load")
                            .reply();
                }
                op = FaultOp.LOAD;
                break;
            default:
                return BeResult.error(BeResult.INVALID_ARGUMENT, "Unsupported transaction operation: " + route.op())
                        .reply();
        }
        FaultOp finalOp = op;
        return withFaults(op, () -> executeOnBe(finalOp, req, route));
    }

    /** The fault op of a route, or null (unknown transaction op). */
    private static FaultOp faultOpOf(Route route) {
        switch (route.kind()) {
            case TRANSACTION:
                switch (route.opLower()) {
                    case "begin": return FaultOp.BEGIN;
                    case "load": return FaultOp.LOAD;
                    case "prepare": return FaultOp.PREPARE;
                    case "commit": return FaultOp.COMMIT;
                    case "rollback": return FaultOp.ROLLBACK;
                    default: return null;
                }
            case STREAM_LOAD:
                return FaultOp.STREAM_LOAD;
            case LOAD_STATE:
                return FaultOp.GET_LOAD_STATE;
            case CANCEL:
                return FaultOp.CANCEL;
            default:
                return null;
        }
    }

    private Reply executeOnBe(FaultOp op, ServerRequest req, Route route) {
        switch (op) {
            case BEGIN:
                return parts.beTransactions.begin(req).reply();
            case LOAD:
                return parts.beLoads.load(req).reply();
            case PREPARE:
                return parts.beTransactions.prepareOrCommit(req, true).reply();
            case COMMIT:
                return parts.beTransactions.prepareOrCommit(req, false).reply();
            case ROLLBACK:
                return parts.beTransactions.rollback(req).reply();
            case STREAM_LOAD:
                return parts.classic.execute(req, route.db(), route.table());
            default:
                throw new IllegalStateException("not a BE op: " + op);
        }
    }

    private Reply withFaults(FaultOp op, Supplier<Reply> action) {
        return FaultGate.apply(parts.backend.faults(), op, action, (status, message) -> {
            ObjectNode json = JsonText.object();
            json.put("Status", status);
            json.put("Message", message);
            return Reply.json(JsonText.write(json));
        });
    }

    private Reply query(ServerRequest req) {
        try {
            return parts.query.query(new String(req.body(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return RestResult.failed("Cannot read the query body: " + e.getMessage());
        }
    }

    private Reply sql(ServerRequest req, Route route) {
        try {
            return parts.sql.execute(route.op(), route.db(), req.body());
        } catch (IOException e) {
            return RestResult.failed(400, "Cannot read the request body: " + e.getMessage());
        }
    }

    private Reply errorLog(ServerRequest req) {
        String file = req.query("file");
        if (file == null) {
            return RestResult.failed("Missing query parameter 'file'");
        }
        return parts.backend.errorLogs().read(file).map(Reply::text)
                .orElseGet(() -> new Reply(404, Map.of(), "error log " + file + " not found\n",
                        "text/plain", false));
    }

    private static boolean allowedOnFe(Route.Kind kind, String method) {
        switch (kind) {
            case TRANSACTION:
                return Set.of("POST", "PUT").contains(method);
            case STREAM_LOAD:
                return "PUT".equals(method);
            case LOAD_STATE:
                return "GET".equals(method);
            case CANCEL:
            case QUERY:
            case SQL:
            case FAULT:
                return "POST".equals(method);
            default:
                return false;
        }
    }

    /** StarRocks FE's answer for an unregistered path or method. */
    private static Reply notImplemented() {
        ObjectNode json = JsonText.object();
        json.put("status", "FAILED");
        json.put("msg", "Not implemented");
        return Reply.json(404, JsonText.write(json));
    }

    /** The BE's answer for an unknown path or method: 404 with the same JSON shape as the FE's. */
    private static Reply notFound() {
        ObjectNode json = JsonText.object();
        json.put("status", "FAILED");
        json.put("msg", "Not Found");
        return Reply.json(404, JsonText.write(json));
    }

    /** {@code " <Status>"} of a JSON reply ({@code Status} of BE/classic replies, {@code status} of FE ones), or "". */
    static String replyStatusOf(Reply reply) {
        if (!reply.contentType().contains("json") || reply.body().isEmpty()) {
            return "";
        }
        // Streams the top-level fields only, so a large query reply is not built into a tree for one log line.
        try (JsonParser p = JsonText.MAPPER.getFactory().createParser(reply.body())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return "";
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (("Status".equals(name) || "status".equals(name)) && value == JsonToken.VALUE_STRING) {
                    return " " + p.getText();
                }
                p.skipChildren();
            }
            return "";
        } catch (IOException e) {
            return "";
        }
    }

    private static String labelOf(ServerRequest req) {
        String label = req.header("label");
        return label != null ? label : req.query("label");
    }
}
