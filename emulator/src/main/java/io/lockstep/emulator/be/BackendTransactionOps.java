package io.lockstep.emulator.be;

import io.lockstep.emulator.catalog.DatabaseInfo;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.http.BasicAuth;
import io.lockstep.emulator.http.BeResult;
import io.lockstep.emulator.http.ServerRequest;
import io.lockstep.emulator.load.LoadFormatException;
import io.lockstep.emulator.storage.TableChanges;
import io.lockstep.emulator.txn.TransactionException;
import io.lockstep.emulator.txn.TransactionPublisher;
import io.lockstep.emulator.txn.TransactionSnapshot;
import io.lockstep.emulator.txn.TransactionStatus;
import java.util.List;
import java.util.Optional;

/**
 * The BE's begin, prepare, commit and rollback of single-table transactions (StarRocks BE {@code TransactionMgr},
 * docs/protocol.md#status-values, #the-emulators-state-tables, #labels-and-label-state). Replies use the BE vocabulary
 * ({@link BeResult}). Stateless apart from {@link Backend}; thread-safe.
 */
public final class BackendTransactionOps {
    static final String MULTI_TO_BE =
            "Multi-statement transaction requests can only be sent to FE nodes, not BE nodes";

    private final Backend be;

    public BackendTransactionOps(Backend backend) {
        this.be = backend;
    }

    /** {@code /api/transaction/begin} on the BE: creates the FE transaction and the BE context. */
    public BeResult begin(ServerRequest req) {
        String label = req.headerOrEmpty("label");
        if (req.isMultiTable()) {
            return BeResult.error(BeResult.INVALID_ARGUMENT, MULTI_TO_BE);
        }
        if (label.isEmpty()) {
            return BeResult.error(BeResult.INVALID_ARGUMENT, "empty label");
        }
        if (be.contexts().get(label).isPresent()) {
            return BeResult.error(BeResult.LABEL_ALREADY_EXISTS, "").existingJobStatus("");
        }
        Long timeoutSec = parseUnsigned(req.header("timeout"));
        Long idleSec = parseUnsigned(req.header("idle_transaction_timeout"));
        if (timeoutSec == null || idleSec == null) {
            return BeResult.error(BeResult.INVALID_ARGUMENT, "Invalid timeout format");
        }
        BeResult denied = checkAuth(req);
        if (denied != null) {
            return denied;
        }
        be.faults().pause(FaultOp.BEGIN);
        String dbName = req.headerOrEmpty("db");
        String tableName = req.headerOrEmpty("table");
        // The two texts below are best guesses: the FE thrift handler's wording was not in the stored sources.
        Optional<DatabaseInfo> db = be.catalog().database(dbName);
        if (db.isEmpty()) {
            return BeResult.error(BeResult.ANALYSIS_ERROR, "unknown database, database=" + dbName);
        }
        Optional<TableSchema> table = be.catalog().table(dbName, tableName);
        if (table.isEmpty()) {
            return BeResult.error(BeResult.ANALYSIS_ERROR, "unknown table, table=" + tableName);
        }
        long timeoutMs = timeoutSec > 0 ? timeoutSec * 1000 : be.transactions().config().defaultTimeoutMs();
        TransactionSnapshot txn;
        try {
            txn = be.transactions().begin(dbName, db.get().id(), label, tableName, timeoutMs);
        } catch (TransactionException e) {
            if (e.reason() == TransactionException.Reason.LABEL_ALREADY_USED
                    && !be.config().labelCollisionAsAnalysisError()) {
                return BeResult.error(BeResult.LABEL_ALREADY_EXISTS, e.getMessage())
                        .existingJobStatus(e.existingJobStatus());
            }
            return BeResult.error(BeResult.ANALYSIS_ERROR, e.getMessage());
        }
        LoadContext ctx = new LoadContext(txn.txnId(), dbName, label, table.get(), be.clock().millis(),
                idleSec > 0 ? idleSec * 1000 : -1);
        if (!be.contexts().add(ctx)) {
            be.transactions().abortIfRunning(txn.txnId(), "label already has a load context");
            return BeResult.error(BeResult.LABEL_ALREADY_EXISTS, "").existingJobStatus("");
        }
        return BeResult.ok().label(label).field("TxnId", txn.txnId()).field("BeginTxnTimeMs", 0);
    }

    /**
     * {@code /api/transaction/prepare} or {@code /commit} reaching the BE: finishes the load, checks the
     * filter ratio, then prepares (PREPARED) or commits one-phase (COMMITTED → VISIBLE). The context is
     * dropped afterwards either way.
     */
    public BeResult prepareOrCommit(ServerRequest req, boolean prepare) {
        FaultOp op = prepare ? FaultOp.PREPARE : FaultOp.COMMIT;
        String label = req.headerOrEmpty("label");
        if (req.isMultiTable()) {
            return BeResult.error(BeResult.INVALID_ARGUMENT, MULTI_TO_BE);
        }
        if (label.isEmpty()) {
            return BeResult.error(BeResult.INVALID_ARGUMENT, "empty label");
        }
        long preparedTimeoutMs = -1;
        String pt = req.header("prepared_timeout");
        if (prepare && pt != null) {
            Long sec = parsePositive(pt);
            if (sec == null) {
                return BeResult.error(BeResult.INVALID_ARGUMENT, "Invalid prepared_timeout: " + pt);
            }
            preparedTimeoutMs = sec * 1000;
        }
        Optional<LoadContext> found = be.contexts().get(label).filter(c -> !c.multiTable());
        if (found.isEmpty()) {
            return notExists(label);
        }
        LoadContext ctx = found.get();
        BeResult mismatch = checkDb(req, ctx);
        if (mismatch != null) {
            return mismatch;
        }
        TableChannel channel = ctx.singleChannel();
        if (!channel.tryEnter()) {
            return BeResult.error(BeResult.TXN_IN_PROCESSING, "Transaction in processing, please retry later")
                    .label(label);
        }
        try {
            be.faults().pause(op);
            if (!isOpen(ctx)) {
                be.contexts().remove(label, ctx.txnId());
                return BeResult.error(BeResult.ABORTED, "transaction is aborted");
            }
            try {
                channel.finishStream(be.parser());
            } catch (LoadFormatException e) {
                return fail(ctx, e.statusCode(), e.getMessage(), null);
            }
            ChannelTotals totals = channel.totals();
            if (totals.loads() == 0) {
                return fail(ctx, BeResult.INTERNAL_ERROR,
                        "transaction " + ctx.brief() + " hasn't send any data yet", null);
            }
            String errorUrl = totals.filteredRows() > 0
                    ? be.errorUrl(be.errorLogs().write(channel.errorRows())) : null;
            if (totals.tooManyFiltered(channel.maxFilterRatio())) {
                return fail(ctx, BeResult.INTERNAL_ERROR, "too many filtered rows", errorUrl);
            }
            List<TableChanges> changes = List.of(new TableChanges(channel.table(), channel.rows()));
            BeResult result;
            if (prepare) {
                be.transactions().prepare(ctx.txnId(), preparedTimeoutMs);
                be.publisher().holdPrepared(ctx.txnId(), changes);
                result = counters(BeResult.ok(), ctx, totals);
            } else {
                TransactionPublisher.Outcome outcome = be.publisher().commitAndPublish(ctx.txnId(), changes);
                result = outcome == TransactionPublisher.Outcome.VISIBLE
                        ? counters(BeResult.ok(), ctx, totals)
                        : BeResult.error(BeResult.PUBLISH_TIMEOUT, "Publish timeout. The data will be visible "
                                + "after a while, which is caused by some replicas failed to publish.");
            }
            be.contexts().remove(label, ctx.txnId());
            return result.label(label).errorUrl(errorUrl);
        } catch (TransactionException e) {
            be.contexts().remove(label, ctx.txnId());
            return BeResult.error(BeResult.ABORTED, "transaction is aborted");
        } finally {
            channel.exit();
        }
    }

    /** {@code /api/transaction/rollback} reaching the BE: aborts the transaction and drops the context. */
    public BeResult rollback(ServerRequest req) {
        String label = req.headerOrEmpty("label");
        if (req.isMultiTable()) {
            return BeResult.error(BeResult.INVALID_ARGUMENT, MULTI_TO_BE);
        }
        if (label.isEmpty()) {
            return BeResult.error(BeResult.INVALID_ARGUMENT, "empty label");
        }
        Optional<LoadContext> found = be.contexts().get(label).filter(c -> !c.multiTable());
        if (found.isEmpty()) {
            return notExists(label);
        }
        LoadContext ctx = found.get();
        BeResult mismatch = checkDb(req, ctx);
        if (mismatch != null) {
            return mismatch;
        }
        be.faults().pause(FaultOp.ROLLBACK);
        ctx.markAborted("transaction is aborted by user.");
        be.transactions().abortIfRunning(ctx.txnId(), "transaction is aborted by user.");
        be.contexts().remove(label, ctx.txnId());
        return BeResult.ok().label(label);
    }

    static BeResult notExists(String label) {
        return BeResult.error(BeResult.TXN_NOT_EXISTS, "transaction with label " + label + " not exists");
    }

    static BeResult checkDb(ServerRequest req, LoadContext ctx) {
        String db = req.headerOrEmpty("db");
        if (!db.equals(ctx.database())) {
            return BeResult.error(BeResult.INVALID_ARGUMENT,
                    "request db " + db + " transaction db " + ctx.database() + " not match");
        }
        return null;
    }

    /** True while the FE transaction is still PREPARE and the context was not aborted. */
    boolean isOpen(LoadContext ctx) {
        if (ctx.abortMessage() != null) {
            return false;
        }
        return be.transactions().get(ctx.txnId()).map(t -> t.status() == TransactionStatus.PREPARE).orElse(false);
    }

    /** Fails the request and rolls the transaction back (StarRocks {@code need_rollback}). */
    BeResult fail(LoadContext ctx, String status, String message, String errorUrl) {
        ctx.markAborted(message);
        be.transactions().abortIfRunning(ctx.txnId(), message);
        be.contexts().remove(ctx.label(), ctx.txnId());
        return BeResult.error(status, message).errorUrl(errorUrl);
    }

    private BeResult checkAuth(ServerRequest req) {
        BasicAuth.Result auth = be.auth().check(req.header("authorization"));
        if (auth.ok()) {
            return null;
        }
        if (auth.user() == null) {
            return BeResult.error(BeResult.INTERNAL_ERROR, "no valid Basic authorization");
        }
        return BeResult.error(BeResult.ANALYSIS_ERROR, auth.error());
    }

    static BeResult counters(BeResult r, LoadContext ctx, ChannelTotals t) {
        return r.field("TxnId", ctx.txnId())
                .field("NumberTotalRows", t.totalRows())
                .field("NumberLoadedRows", t.loadedRows())
                .field("NumberFilteredRows", t.filteredRows())
                .field("NumberUnselectedRows", t.unselectedRows())
                .field("LoadBytes", t.loadBytes())
                .field("LoadTimeMs", 0)
                .field("StreamLoadPlanTimeMs", 0)
                .field("ReceivedDataTimeMs", 0)
                .field("WriteDataTimeMs", 0)
                .field("CommitAndPublishTimeMs", 0);
    }

    /** Absent header → 0 (use the default); not an unsigned int → null. */
    static Long parseUnsigned(String value) {
        if (value == null || value.isEmpty()) {
            return 0L;
        }
        try {
            long v = Long.parseLong(value.trim());
            return v < 0 || v > Integer.MAX_VALUE ? null : v;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Long parsePositive(String value) {
        Long v = parseUnsigned(value);
        return v == null || v <= 0 ? null : v;
    }
}
