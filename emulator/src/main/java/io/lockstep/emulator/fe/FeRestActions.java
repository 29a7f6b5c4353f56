package io.lockstep.emulator.fe;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.emulator.be.Backend;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.http.FeResult;
import io.lockstep.emulator.http.JsonText;
import io.lockstep.emulator.http.Reply;
import io.lockstep.emulator.http.RestResult;
import io.lockstep.emulator.http.ServerRequest;
import io.lockstep.emulator.txn.TransactionException;
import io.lockstep.emulator.txn.TransactionSnapshot;
import java.util.Optional;

/**
 * The FE's other REST actions (docs/protocol.md#starrocks-transaction-stream-load, #labels-and-label-state): the
 * classic {@code _stream_load} pre-check before its redirect (StarRocks {@code LoadAction}), {@code get_load_state}
 * ({@code GetStreamLoadState}), {@code _cancel} ({@code CancelStreamLoadAction}) and {@code health}
 * ({@code HealthAction}). Thread-safe.
 */
public final class FeRestActions {
    private final Backend be;

    public FeRestActions(Backend backend) {
        this.be = backend;
    }

    /**
     * Classic stream load on the FE: an HTTP/1.1 request without {@code Expect: 100-continue} is rejected and
     * its connection closed; unknown database or table fail; otherwise the BE executes it.
     */
    public FeDecision streamLoad(ServerRequest req, String db, String table) {
        String expect = req.header("expect");
        if (req.http11() && (expect == null || !expect.trim().equalsIgnoreCase("100-continue"))) {
            return FeDecision.answer(FeResult.failed(FeResult.DDL_EXCEPTION, "There is no 100-continue header")
                    .reply().closing());
        }
        // Unknown database/table texts of LoadAction are best guesses (not in the stored sources).
        if (be.catalog().database(db).isEmpty()) {
            return FeDecision.answer(FeResult.failed(FeResult.DDL_EXCEPTION,
                    "Database[" + db + "] does not exist").reply());
        }
        if (be.catalog().table(db, table).isEmpty()) {
            return FeDecision.answer(FeResult.failed(FeResult.DDL_EXCEPTION,
                    "Table[" + table + "] does not exist").reply());
        }
        return new FeDecision.Forward(FaultOp.STREAM_LOAD);
    }

    /** {@code GET /api/{db}/get_load_state?label=L}: the latest transaction's status, lowercase keys. */
    public FeDecision loadState(ServerRequest req, String db) {
        String label = req.query("label");
        if (label == null || label.isBlank()) {
            return FeDecision.answer(RestResult.failed("No label selected"));
        }
        if (be.catalog().database(db).isEmpty()) {
            return FeDecision.answer(RestResult.failed("unknown database, database=" + db));
        }
        return new FeDecision.Execute(FaultOp.GET_LOAD_STATE, () -> {
            be.faults().pause(FaultOp.GET_LOAD_STATE);
            Optional<TransactionSnapshot> txn = be.transactions().latest(db, label);
            ObjectNode json = JsonText.object();
            json.put("state", txn.map(t -> t.status().name()).orElse("UNKNOWN"));
            txn.map(TransactionSnapshot::reason).ifPresent(r -> json.put("reason", r));
            return RestResult.ok(json);
        });
    }

    /** {@code POST /api/{db}/{table}/_cancel?label=L}: aborts the label's transaction ("user cancel"). */
    public FeDecision cancel(ServerRequest req, String db) {
        String label = req.query("label");
        if (label == null || label.isBlank()) {
            return FeDecision.answer(RestResult.failed("No label selected"));
        }
        if (be.catalog().database(db).isEmpty()) {
            return FeDecision.answer(RestResult.failed("unknown database, database=" + db));
        }
        return new FeDecision.Execute(FaultOp.CANCEL, () -> {
            be.faults().pause(FaultOp.CANCEL);
            Optional<TransactionSnapshot> txn = be.transactions().latest(db, label);
            if (txn.isEmpty()) {
                return RestResult.failed("No transaction found with db[" + db + "] and label[" + label + "]");
            }
            try {
                be.transactions().abort(txn.get().txnId(), "user cancel");
                return RestResult.ok();
            } catch (TransactionException e) {
                return RestResult.failed(e.getMessage());
            }
        });
    }

    /** FE health: {@code {"total_backend_num":1,"online_backend_num":1,"status":"OK"}}. */
    public static Reply feHealth() {
        ObjectNode json = JsonText.object();
        json.put("total_backend_num", 1);
        json.put("online_backend_num", 1);
        json.put("status", "OK");
        return Reply.json(JsonText.write(json));
    }

    /** BE health: {@code {"status": "OK","msg": "To Be Added"}}. */
    public static Reply beHealth() {
        ObjectNode json = JsonText.object();
        json.put("status", "OK");
        json.put("msg", "To Be Added");
        return Reply.json(JsonText.write(json));
    }
}
