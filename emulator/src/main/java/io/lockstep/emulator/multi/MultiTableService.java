package io.lockstep.emulator.multi;

import io.lockstep.emulator.be.Backend;
import io.lockstep.emulator.be.ChannelTotals;
import io.lockstep.emulator.be.LoadContext;
import io.lockstep.emulator.be.TableChannel;
import io.lockstep.emulator.catalog.DatabaseInfo;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.http.FeResult;
import io.lockstep.emulator.http.Reply;
import io.lockstep.emulator.http.ServerRequest;
import io.lockstep.emulator.load.LoadFormatException;
import io.lockstep.emulator.storage.TableChanges;
import io.lockstep.emulator.txn.TransactionException;
import io.lockstep.emulator.txn.TransactionPublisher;
import io.lockstep.emulator.txn.TransactionSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;

/**
 * The FE side of multi-table transactions ({@code transaction_type: multi}, docs/protocol.md#multi-table-transactions;
 * StarRocks {@code MultiStatementTransactionHandler}, {@code StreamLoadMgr}, {@code StreamLoadMultiStmtTask}): begin,
 * commit and rollback are answered here; a load is checked and planned here (a per-table channel is created at the
 * table's first load) and then executed by the BE. Any failure of a load aborts the whole transaction.
 *
 * <p>Design choice (the StarRocks sources leave it open; emulator/README.md): the FE transaction is registered at
 * begin, so {@code get_load_state} reports PREPARE right after begin and the running-txn limit counts it; a commit with
 * no load succeeds with nothing published.
 *
 * <p>Thread-safe: the monitor {@code this} guards the task map; each task guards its own state.
 */
@ThreadSafe
public final class MultiTableService {
    /** How long a commit waits for an in-flight load of a channel to finish, ms. */
    private static final long CHANNEL_WAIT_MS = 30_000;

    private final Backend be;
    @GuardedBy("this")
    private final Map<String, MultiTableTask> tasks = new HashMap<>();

    public MultiTableService(Backend backend) {
        this.be = backend;
        backend.transactions().addAbortListener(this::onAbort);
    }

    /** Begin: creates the task, its transaction and the BE context; replies without TxnId. */
    public Reply begin(ServerRequest req, long timeoutMsOrDefault) {
        String dbName = req.headerOrEmpty("db");
        String label = req.headerOrEmpty("label");
        Optional<DatabaseInfo> db = be.catalog().database(dbName);
        if (db.isEmpty()) {
            return FeResult.failed("Database[" + dbName + "] does not exist.").reply();
        }
        synchronized (this) {
            MultiTableTask existing = tasks.get(label);
            if (existing != null && be.transactions().get(existing.txnId()).isPresent()) {
                MultiTaskState s = existing.state();
                if (s == MultiTaskState.BEGIN) {
                    return FeResult.labelAlreadyExists("Transaction already started with label [" + label
                            + "], txnId: " + existing.txnId(), s.name()).with("TxnId", existing.txnId()).reply();
                }
                if (s == MultiTaskState.COMMITING || s == MultiTaskState.COMMITED || s == MultiTaskState.FINISHED) {
                    return FeResult.labelAlreadyExists("Label [" + label + "] has already been used.", s.name())
                            .reply();
                }
            }
            long timeoutMs = timeoutMsOrDefault > 0 ? timeoutMsOrDefault
                    : be.transactions().config().multiTableDefaultTimeoutMs();
            TransactionSnapshot txn;
            try {
                txn = be.transactions().begin(dbName, db.get().id(), label, null, timeoutMs);
            } catch (TransactionException e) {
                if (e.reason() == TransactionException.Reason.LABEL_ALREADY_USED) {
                    String status = be.transactions().latest(dbName, label).map(t -> t.status().name()).orElse("");
                    return FeResult.labelAlreadyExists(e.getMessage(), status).with("Db", dbName).reply();
                }
                return FeResult.failed(e.getMessage()).reply();
            }
            tasks.put(label, new MultiTableTask(label, dbName, txn.txnId()));
            be.contexts().removeTxn(txn.txnId());
            be.contexts().add(new LoadContext(txn.txnId(), dbName, label, null, be.clock().millis()));
        }
        return FeResult.ok().reply();
    }

    /**
     * Checks a load on the FE and creates the table's channel on its first load.
     *
     * @return an error reply, or empty when the BE may execute the load
     */
    public Optional<Reply> planLoad(ServerRequest req) {
        String dbName = req.headerOrEmpty("db");
        String label = req.headerOrEmpty("label");
        String tableName = req.headerOrEmpty("table");
        MultiTableTask task = task(label);
        if (task == null) {
            return Optional.of(FeResult.failed("stream load task " + label + " does not exist").reply());
        }
        if (!task.database().equals(dbName)) {
            return Optional.of(FeResult.failed("Request database " + dbName + " not equal transaction database "
                    + task.database()).reply());
        }
        String refused = loadRefusal(task);
        if (refused != null) {
            return Optional.of(FeResult.failed(refused).reply());
        }
        Optional<TableSchema> table = be.catalog().table(dbName, tableName);
        if (table.isEmpty()) {
            String message = "Failed to find table " + tableName + " in db " + dbName;
            be.transactions().abortIfRunning(task.txnId(), message);
            return Optional.of(FeResult.failed(message).reply());
        }
        Optional<LoadContext> ctx = be.contexts().get(label).filter(c -> c.txnId() == task.txnId());
        if (ctx.isEmpty()) {
            return Optional.of(FeResult.failed("stream load task " + label + " does not exist").reply());
        }
        ctx.get().channelFor(table.get());
        return Optional.empty();
    }

    /** Commit: finishes every channel, checks filter ratios and publishes all tables atomically. */
    public Reply commit(ServerRequest req) {
        String label = req.headerOrEmpty("label");
        MultiTableTask task = task(label);
        if (task == null) {
            // StreamLoadMgr.commitLoadTask throws StarRocksException; TransactionLoadAction prefixes its class.
            return FeResult.failed("stream load task " + label + " does not exist").reply();
        }
        long txnId = task.txnId();
        synchronized (task) {
            switch (task.state()) {
                case COMMITED:
                case FINISHED:
                    return FeResult.ok("Transaction " + txnId + " has already committed, label is " + label)
                            .with("Label", label).with("TxnId", txnId).reply();
                case CANCELLED:
                    return FeResult.failedPlain("Can not commit CANCELLED transaction " + txnId + ", label is "
                            + label).reply();
                case ABORTING:
                    return FeResult.failedPlain("Transaction " + txnId + " is aborting (reason: "
                            + task.abortReason() + "), label is " + label).reply();
                case COMMITING:
                    return FeResult.failedPlain("Transaction " + txnId + " is already committing, label is "
                            + label).reply();
                default:
                    task.moveTo(MultiTaskState.COMMITING);
            }
        }
        LoadContext ctx = be.contexts().get(label).filter(c -> c.txnId() == txnId).orElse(null);
        List<TableChannel> channels = ctx == null ? List.of() : ctx.closeForCommit();
        be.faults().pause(FaultOp.COMMIT);
        List<TableChannel> entered = new ArrayList<>();
        try {
            List<TableChanges> changes = new ArrayList<>();
            if (ctx != null) {
                for (TableChannel channel : channels) {
                    if (!channel.enter(CHANNEL_WAIT_MS)) {
                        return abortOnCommit(task, "wait for load of table " + channel.table().name()
                                + " to finish timed out");
                    }
                    entered.add(channel);
                    channel.finishStream(be.parser());
                    ChannelTotals totals = channel.totals();
                    if (totals.tooManyFiltered(channel.maxFilterRatio())) {
                        String url = be.errorUrl(be.errorLogs().write(channel.errorRows()));
                        abortOnCommit(task, "too many filtered rows");
                        return FeResult.failedPlain("too many filtered rows").with("ErrorURL", url).reply();
                    }
                    if (totals.loads() > 0) {
                        changes.add(new TableChanges(channel.table(), channel.rows()));
                    }
                }
            }
            TransactionPublisher.Outcome outcome = be.publisher().commitAndPublish(txnId, changes);
            task.moveTo(MultiTaskState.COMMITED);
            if (outcome == TransactionPublisher.Outcome.VISIBLE) {
                task.moveTo(MultiTaskState.FINISHED);
            }
            be.contexts().remove(label, txnId);
            // StreamLoadMultiStmtTask.commitTxn adds no result entry on success: the reply is Status and Message only.
            return FeResult.ok().reply();
        } catch (TransactionException | LoadFormatException e) {
            return abortOnCommit(task, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return abortOnCommit(task, "commit interrupted");
        } finally {
            entered.forEach(TableChannel::exit);
        }
    }

    /** Rollback: aborts the transaction of a BEGIN task; idempotent for a cancelled one. */
    public Reply rollback(ServerRequest req) {
        String label = req.headerOrEmpty("label");
        MultiTableTask task = task(label);
        if (task == null) {
            // StreamLoadMgr.rollbackLoadTask builds this text without spaces around the label (sic) and throws it
            // as a StarRocksException, which TransactionLoadAction prefixes with its class.
            return FeResult.failed("stream load task" + label + "does not exist").reply();
        }
        long txnId = task.txnId();
        MultiTaskState state;
        synchronized (task) {
            state = task.state();
            if (state == MultiTaskState.BEGIN) {
                task.moveTo(MultiTaskState.ABORTING);
            }
        }
        switch (state) {
            case CANCELLED:
                return FeResult.ok("Transaction " + txnId + " has already aborted, label is " + label)
                        .with("Label", label).with("TxnId", txnId).reply();
            case ABORTING:
                return FeResult.ok("Transaction " + txnId + " abort is already in progress, label is " + label
                        + ". Background retry will continue.").reply();
            case COMMITED:
            case FINISHED:
                return FeResult.failedPlain("Can not abort VISIBLE transaction " + txnId + ", label is " + label)
                        .reply();
            case COMMITING:
                return FeResult.failedPlain("Can not abort transaction " + txnId + " during committing, label is "
                        + label).reply();
            default:
                be.faults().pause(FaultOp.ROLLBACK);
                be.transactions().abortIfRunning(txnId, "user abort");
                task.cancel("user abort");
                be.contexts().remove(label, txnId);
                return FeResult.ok("stream load " + label + " abort").reply();
        }
    }

    /** FE restart: unfinished tasks are aborted (StarRocks {@code cancelAfterRestart}). */
    public void restart() {
        List<MultiTableTask> all;
        synchronized (this) {
            all = new ArrayList<>(tasks.values());
        }
        for (MultiTableTask t : all) {
            if (t.state() == MultiTaskState.BEGIN || t.state() == MultiTaskState.COMMITING) {
                be.transactions().abortIfRunning(t.txnId(), "FE restarted");
                t.cancel("FE restarted");
            }
        }
    }

    /** The task of a label, or null. */
    public synchronized MultiTableTask task(String label) {
        return tasks.get(label);
    }

    private Reply abortOnCommit(MultiTableTask task, String reason) {
        be.transactions().abortIfRunning(task.txnId(), reason);
        task.cancel(reason);
        be.contexts().remove(task.label(), task.txnId());
        return FeResult.failedPlain(reason).reply();
    }

    /**
     * StarRocks FE {@code StreamLoadMgr.checkLoadAllowed} gives the endings, the "Stream load task L" prefix is ours.
     */
    private static String loadRefusal(MultiTableTask task) {
        String prefix = "Stream load task " + task.label();
        switch (task.state()) {
            case CANCELLED:
                return prefix + " has already been cancelled: " + task.abortReason();
            case ABORTING:
                return prefix + " is aborting: " + task.abortReason();
            case COMMITED:
                return prefix + " has already been commited";
            case FINISHED:
                return prefix + " has already been finished";
            case COMMITING:
                return prefix + " is committing, can not accept new loads";
            default:
                return null;
        }
    }

    private void onAbort(TransactionSnapshot txn) {
        if (!txn.multiTable()) {
            return;
        }
        MultiTableTask t = task(txn.label());
        if (t != null && t.txnId() == txn.txnId()) {
            t.cancel(txn.reason());
            be.contexts().remove(t.label(), t.txnId());
        }
    }
}
