package io.lockstep.emulator.doris;

import io.lockstep.emulator.be.Backend;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.http.ClassicResult.Counters;
import io.lockstep.emulator.http.JsonText;
import io.lockstep.emulator.http.Reply;
import io.lockstep.emulator.http.RestResult;
import io.lockstep.emulator.http.ServerRequest;
import io.lockstep.emulator.http.WebUiPage;
import io.lockstep.emulator.server.FaultAdminAction;
import io.lockstep.emulator.server.FaultGate;
import io.lockstep.emulator.server.QueryAction;
import io.lockstep.emulator.server.RequestHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes one request of one Doris listener (docs/protocol.md#doris-endpoints-redirects-and-headers). FE: authenticates,
 * then answers 307 to the BE for {@code _stream_load} and {@code _stream_load_2pc} (faults are not consulted there, so
 * each fault hits the BE's execution once), executes {@code get_load_state}, and serves {@code health},
 * {@code backends}, a table's {@code _schema} ({@link DorisTableSchema}), the emulator's {@code /api/query} and
 * {@code /api/_fault/{action}}; {@code GET /} (no authentication) answers a small HTML page on both listeners. BE:
 * executes {@code _stream_load} (fault op STREAM_LOAD) and {@code _stream_load_2pc} (COMMIT or ABORT by
 * {@code txn_operation}), serves error logs. Forced fault statuses are written in the op's own vocabulary. Logs one
 * INFO line per request (never the Authorization header, the message or row data). Thread-safe.
 */
final class DorisDispatcher implements RequestHandler {
    private static final Logger LOG = LoggerFactory.getLogger(DorisDispatcher.class);

    /** Which listener. */
    enum Role { FE, BE }

    private final Role role;
    private final Backend be;
    private final DorisFrontend frontend;
    private final DorisStreamLoad streamLoad;
    private final DorisTwoPhaseCommit twoPc;
    private final QueryAction query;
    private final FaultAdminAction faultAdmin;
    private final Runnable tick;

    DorisDispatcher(Role role, Backend backend, DorisFrontend frontend, DorisStreamLoad streamLoad,
                    DorisTwoPhaseCommit twoPc, QueryAction query, FaultAdminAction faultAdmin, Runnable tick) {
        this.role = role;
        this.be = backend;
        this.frontend = frontend;
        this.streamLoad = streamLoad;
        this.twoPc = twoPc;
        this.query = query;
        this.faultAdmin = faultAdmin;
        this.tick = tick;
    }

    @Override
    public Reply dispatch(ServerRequest req) {
        long startNs = System.nanoTime();
        Reply reply;
        try {
            tick.run();
            DorisRoute route = DorisRoute.parse(req.path());
            reply = role == Role.FE ? fe(req, route) : be(req, route);
        } catch (RuntimeException e) {
            LOG.error("Doris {} {} {} failed unexpectedly", role, req.method(), req.path(), e);
            reply = DorisRestResult.envelope(500, "Internal Error", 500, JsonText.MAPPER
                    .getNodeFactory().textNode(e.getClass().getName() + ": " + e.getMessage()));
        }
        if (LOG.isInfoEnabled()) {
            String label = req.header("label") != null ? req.header("label") : req.query("label");
            LOG.info("Doris {} {} {} label={} -> {} {}ms", role, req.method(), req.path(), label, reply.httpStatus(),
                    (System.nanoTime() - startNs) / 1_000_000);
        }
        return reply;
    }

    private Reply fe(ServerRequest req, DorisRoute route) {
        String m = req.method();
        switch (route.kind()) {
            case ROOT:
                return "GET".equals(m) ? WebUiPage.reply("Doris", "FE") : notFound();
            case HEALTH:
                return "GET".equals(m) ? frontend.health() : notFound();
            case ERROR_LOG:
                return "GET".equals(m) ? errorLog(req) : notFound();
            case UNKNOWN:
                return notFound();
            default:
                break;
        }
        Reply denied = frontend.authenticate(req);
        if (denied != null) {
            return denied;
        }
        switch (route.kind()) {
            case STREAM_LOAD:
                return "PUT".equals(m) ? frontend.streamLoad(req) : notFound();
            case TWO_PC:
                return "PUT".equals(m) ? frontend.twoPhaseCommit(req) : notFound();
            case LOAD_STATE:
                return "GET".equals(m) ? FaultGate.apply(be.faults(), FaultOp.GET_LOAD_STATE,
                        () -> frontend.loadState(req, route.db()),
                        (status, message) -> DorisRestResult.error(status, 1, message)) : notFound();
            case BACKENDS:
                return "GET".equals(m) ? frontend.backends() : notFound();
            case SCHEMA:
                return "GET".equals(m) ? frontend.tableSchema(route.db(), route.table()) : notFound();
            case UNSUPPORTED_LOAD:
                return unsupported(req.path());
            case QUERY:
                return "POST".equals(m) ? query(req) : notFound();
            case FAULT:
                return "POST".equals(m) ? faultAdmin.handle(route.name(), req) : notFound();
            default:
                return notFound();
        }
    }

    private Reply be(ServerRequest req, DorisRoute route) {
        String m = req.method();
        switch (route.kind()) {
            case ROOT:
                return "GET".equals(m) ? WebUiPage.reply("Doris", "BE") : notFound();
            case HEALTH:
                return "GET".equals(m) ? frontend.health() : notFound();
            case ERROR_LOG:
                return "GET".equals(m) ? errorLog(req) : notFound();
            case STREAM_LOAD:
                if (!"PUT".equals(m)) {
                    return notFound();
                }
                return FaultGate.apply(be.faults(), FaultOp.STREAM_LOAD,
                        () -> streamLoad.execute(req, route.db(), route.table()),
                        (status, message) -> DorisLoadResult.reply(DorisLoadResult.NO_TXN, req.headerOrEmpty("label"),
                                req.headerOrEmpty("comment"), "true".equals(req.headerOrEmpty("two_phase_commit")),
                                status, null, message, Counters.NONE, null,
                                null));
            case TWO_PC: {
                if (!"PUT".equals(m)) {
                    return notFound();
                }
                FaultOp op = DorisTwoPhaseCommit.faultOp(req);
                if (op == null) {
                    return twoPc.execute(req, route.db());
                }
                return FaultGate.apply(be.faults(), op, () -> twoPc.execute(req, route.db()),
                        DorisTxnOpResult::reply);
            }
            case UNSUPPORTED_LOAD:
                return unsupported(req.path());
            default:
                return notFound();
        }
    }

    private Reply query(ServerRequest req) {
        try {
            return query.query(new String(req.body(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return RestResult.failed("Cannot read the query body: " + e.getMessage());
        }
    }

    private Reply errorLog(ServerRequest req) {
        String file = req.query("file");
        if (file == null) {
            return DorisRestResult.error("Bad Request", 403, "Missing query parameter 'file'");
        }
        return be.errorLogs().read(file).map(Reply::text)
                .orElseGet(() -> new Reply(404, Map.of(), "error log " + file + " not found\n", "text/plain", false));
    }

    private static Reply unsupported(String path) {
        return DorisRestResult.legacyFailed(path + " is not supported by the Lockstep emulator; use "
                + "/api/{db}/{table}/_stream_load");
    }

    private static Reply notFound() {
        return DorisRestResult.envelope(404, "Not Found", 404,
                JsonText.MAPPER.getNodeFactory().textNode("Not Found"));
    }
}
