package io.lockstep.emulator.be;

import io.lockstep.emulator.catalog.DatabaseInfo;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.http.BasicAuth;
import io.lockstep.emulator.http.ClassicResult;
import io.lockstep.emulator.http.ClassicResult.Counters;
import io.lockstep.emulator.http.Reply;
import io.lockstep.emulator.http.ServerRequest;
import io.lockstep.emulator.load.LoadFormat;
import io.lockstep.emulator.load.LoadFormatException;
import io.lockstep.emulator.load.ParsedBatch;
import io.lockstep.emulator.storage.TableChanges;
import io.lockstep.emulator.txn.TransactionException;
import io.lockstep.emulator.txn.TransactionPublisher;
import io.lockstep.emulator.txn.TransactionSnapshot;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The BE's classic {@code PUT /api/{db}/{table}/_stream_load}: begin, read, parse, check the filter ratio, commit and
 * publish in one request (docs/protocol.md#starrocks-classic-stream-load; StarRocks BE {@code StreamLoadAction}).
 * Replies use the classic vocabulary. Thread-safe.
 */
public final class ClassicStreamLoad {
    private final Backend be;

    public ClassicStreamLoad(Backend backend) {
        this.be = backend;
    }

    /** Executes one classic stream load. */
    public Reply execute(ServerRequest req, String dbName, String tableName) {
        String label = req.headerOrEmpty("label");
        if (label.isEmpty()) {
            label = UUID.randomUUID().toString();
        }
        BasicAuth.Result auth = be.auth().check(req.header("authorization"));
        if (!auth.ok()) {
            return fail(-1, label, auth.error(), Counters.NONE, null);
        }
        Long timeoutSec = BackendTransactionOps.parseUnsigned(req.header("timeout"));
        if (timeoutSec == null || timeoutSec > 259_200) {
            return fail(-1, label, "Invalid timeout format", Counters.NONE, null);
        }
        Optional<DatabaseInfo> db = be.catalog().database(dbName);
        Optional<TableSchema> table = be.catalog().table(dbName, tableName);
        if (db.isEmpty() || table.isEmpty()) {
            return fail(-1, label, db.isEmpty() ? "unknown database, database=" + dbName
                    : "unknown table, table=" + tableName, Counters.NONE, null);
        }
        long timeoutMs = timeoutSec > 0 ? timeoutSec * 1000 : be.transactions().config().defaultTimeoutMs();
        TransactionSnapshot txn;
        try {
            txn = be.transactions().begin(dbName, db.get().id(), label, tableName, timeoutMs);
        } catch (TransactionException e) {
            if (e.reason() == TransactionException.Reason.LABEL_ALREADY_USED) {
                return ClassicResult.reply(-1, label, ClassicResult.LABEL_ALREADY_EXISTS, e.existingJobStatus(),
                        e.getMessage(), Counters.NONE, null);
            }
            return fail(-1, label, e.getMessage(), Counters.NONE, null);
        }
        long txnId = txn.txnId();
        be.faults().pause(FaultOp.STREAM_LOAD);
        try {
            LoadFormat format = LoadFormat.fromHeaders(req.headers());
            byte[] body = req.body();
            if (body.length > be.config().maxBodyBytes()) {
                return abort(txnId, label, "body size " + body.length + " exceed limit: "
                        + be.config().maxBodyBytes() + ", label=" + label
                        + ". You can increase the limit by setting streaming_load_max_mb in be.conf.",
                        Counters.NONE, null);
            }
            if (BackendLoadOps.jsonSizeChecked(req.headers()) && body.length > be.config().maxJsonBatchBytes()) {
                return abort(txnId, label, "The size of this batch exceed the max size ["
                        + be.config().maxJsonBatchBytes() + "]  of json type data  data [ " + body.length
                        + " ]. Set ignore_json_size to skip the check, although it may lead huge memory consuming.",
                        Counters.NONE, null);
            }
            ParsedBatch batch = be.parser().parse(table.get(), format, body);
            Counters counters = new Counters(batch.totalRows(), batch.rows().size(), batch.filteredRows(),
                    batch.unselectedRows(), body.length, 0);
            String errorUrl = batch.filteredRows() > 0 ? be.errorUrl(be.errorLogs().write(batch.errorRows())) : null;
            ChannelTotals totals = new ChannelTotals(batch.totalRows(), batch.rows().size(), batch.filteredRows(),
                    batch.unselectedRows(), body.length, 1);
            if (totals.tooManyFiltered(format.maxFilterRatio())) {
                return abort(txnId, label, "too many filtered rows", counters, errorUrl);
            }
            TransactionPublisher.Outcome outcome = be.publisher().commitAndPublish(txnId,
                    List.of(new TableChanges(table.get(), batch.rows())));
            String status = outcome == TransactionPublisher.Outcome.VISIBLE
                    ? ClassicResult.SUCCESS : ClassicResult.PUBLISH_TIMEOUT;
            return ClassicResult.reply(txnId, label, status, null, "OK", counters, errorUrl);
        } catch (LoadFormatException e) {
            return abort(txnId, label, e.getMessage(), Counters.NONE, null);
        } catch (IOException e) {
            return abort(txnId, label, "receive body failed: " + e.getMessage(), Counters.NONE, null);
        } catch (TransactionException e) {
            return fail(txnId, label, e.getMessage(), Counters.NONE, null);
        }
    }

    private Reply abort(long txnId, String label, String message, Counters counters, String errorUrl) {
        be.transactions().abortIfRunning(txnId, message);
        return fail(txnId, label, message, counters, errorUrl);
    }

    private static Reply fail(long txnId, String label, String message, Counters counters, String errorUrl) {
        return ClassicResult.reply(txnId, label, ClassicResult.FAIL, null, message, counters, errorUrl);
    }
}
