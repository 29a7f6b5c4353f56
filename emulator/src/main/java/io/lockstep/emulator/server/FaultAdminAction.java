package io.lockstep.emulator.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.fault.Faults;
import io.lockstep.emulator.http.JsonText;
import io.lockstep.emulator.http.Reply;
import io.lockstep.emulator.http.RestResult;
import io.lockstep.emulator.http.ServerRequest;
import java.time.Duration;

/**
 * {@code POST /api/_fault/{action}} on the FE port (emulator admin, not a StarRocks endpoint). Actions and
 * query parameters:
 * <ul>
 *   <li>{@code delay?op=load&ms=200} (ms=0 clears)</li>
 *   <li>{@code fail?op=commit&count=1&status=INTERNAL_ERROR&message=boom}</li>
 *   <li>{@code fail_http?op=load&count=1&http=503}</li>
 *   <li>{@code drop?op=load&count=1} (drop the connection mid-body)</li>
 *   <li>{@code drop_reply?op=commit&count=1} (execute, then drop the connection instead of replying)</li>
 *   <li>{@code publish_timeout?count=1}</li>
 *   <li>{@code expire?db=d&label=l}</li>
 *   <li>{@code running_txn_limit?limit=5}</li>
 *   <li>{@code restart}, {@code clear}</li>
 * </ul>
 * Replies with the RestBaseResult shape; bad parameters (missing, not an int, or refused by {@link Faults}'s
 * validation: count &lt; 1, http outside 500-599, an unknown status, limit &lt; 0) give FAILED naming the parameter
 * and install nothing.
 */
public final class FaultAdminAction {
    private final Faults faults;

    /** @param faults the emulator's fault rules */
    public FaultAdminAction(Faults faults) {
        this.faults = faults;
    }

    /** Applies one admin action; never throws (bad parameters give FAILED). */
    public Reply handle(String action, ServerRequest req) {
        try {
            switch (action) {
                case "delay":
                    faults.delay(op(req), Duration.ofMillis(number(req, "ms", -1)));
                    return RestResult.ok();
                case "fail":
                    faults.failNext(op(req), (int) number(req, "count", 1), required(req, "status"),
                            req.queryParams().getOrDefault("message", "injected failure"));
                    return RestResult.ok();
                case "fail_http":
                    faults.failNextHttp(op(req), (int) number(req, "count", 1), (int) number(req, "http", 500));
                    return RestResult.ok();
                case "drop":
                    faults.dropConnectionMidBody(op(req), (int) number(req, "count", 1));
                    return RestResult.ok();
                case "drop_reply":
                    faults.dropReplyNext(op(req), (int) number(req, "count", 1));
                    return RestResult.ok();
                case "publish_timeout":
                    faults.publishTimeoutNext((int) number(req, "count", 1));
                    return RestResult.ok();
                case "expire": {
                    boolean expired = faults.forceExpire(required(req, "db"), required(req, "label"));
                    ObjectNode json = JsonText.object();
                    json.put("expired", expired);
                    return RestResult.ok(json);
                }
                case "running_txn_limit":
                    faults.setMaxRunningTxnPerDb((int) number(req, "limit", -1));
                    return RestResult.ok();
                case "restart":
                    faults.restart();
                    return RestResult.ok();
                case "clear":
                    faults.clear();
                    return RestResult.ok();
                default:
                    return RestResult.failed("Unknown fault action: " + action);
            }
        } catch (IllegalArgumentException e) {
            return RestResult.failed(e.getMessage());
        }
    }

    private static FaultOp op(ServerRequest req) {
        String op = required(req, "op");
        try {
            return FaultOp.parse(op);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Unknown op '" + op + "'; expected one of begin, load, prepare, "
                    + "commit, rollback, stream_load, get_load_state, cancel, abort");
        }
    }

    private static String required(ServerRequest req, String name) {
        String v = req.query(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("Missing query parameter '" + name + "'");
        }
        return v;
    }

    private static long number(ServerRequest req, String name, long defaultValue) {
        String v = req.query(name);
        if (v == null) {
            if (defaultValue < 0) {
                throw new IllegalArgumentException("Missing query parameter '" + name + "'");
            }
            return defaultValue;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Query parameter '" + name + "' is not an int: " + v);
        }
    }
}
