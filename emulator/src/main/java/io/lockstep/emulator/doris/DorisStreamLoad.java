package io.lockstep.emulator.doris;

import io.lockstep.emulator.be.Backend;
import io.lockstep.emulator.be.ChannelTotals;
import io.lockstep.emulator.catalog.DatabaseInfo;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.http.BasicAuth;
import io.lockstep.emulator.http.ClassicResult.Counters;
import io.lockstep.emulator.http.Reply;
import io.lockstep.emulator.http.ServerRequest;
import io.lockstep.emulator.load.LoadFormatException;
import io.lockstep.emulator.load.ParsedBatch;
import io.lockstep.emulator.load.StreamLoadFormat;
import io.lockstep.emulator.storage.TableChanges;
import io.lockstep.emulator.txn.TransactionException;
import io.lockstep.emulator.txn.TransactionPublisher;
import io.lockstep.emulator.txn.TransactionSnapshot;
import io.lockstep.emulator.txn.TransactionStatus;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The BE's {@code PUT /api/{db}/{table}/_stream_load} in Doris mode: one request is one load transaction (Doris
 * docs/protocol.md#doris-endpoints-redirects-and-headers, #doris-replies, #doris-states-labels-and-timers; BE
 * {@code stream_load.cpp}, FE {@code loadTxnBegin}/{@code loadTxnCommit}/ {@code loadTxnPreCommit}).
 *
 * <p>Order: Basic auth; exactly one of {@code Content-Length} and {@code Transfer-Encoding: chunked};
 * {@code group_commit}; {@code timeout}; database and table; begin (label syntax, label dedup — a label whose
 * transaction is not ABORTED answers {@code Label Already Exists} with {@code ExistingJobStatus} RUNNING,
 * PRECOMMITTED or FINISHED and the txn id only inside {@code Message} — then the running-txn limit), all before
 * the body is read; then the body is read (gunzipped for {@code compress_type: gz}), parsed and checked against
 * {@code max_filter_ratio}. Without {@code two_phase_commit: true} the load commits and publishes (VISIBLE, or
 * {@code Publish Timeout} when that fault is injected); with it the load ends PRECOMMITTED, its rows kept until
 * {@code _stream_load_2pc}. Any failure after begin aborts the transaction. Thread-safe.
 */
final class DorisStreamLoad {
    private static final Set<String> GROUP_COMMIT_MODES = Set.of("async_mode", "sync_mode", "off_mode");

    private final Backend be;
    private final DorisConfig config;

    DorisStreamLoad(Backend backend, DorisConfig config) {
        this.be = backend;
        this.config = config;
    }

    /** Executes one stream load; never throws. */
    Reply execute(ServerRequest req, String dbName, String tableName) {
        long startNs = System.nanoTime();
        String label = req.headerOrEmpty("label");
        if (label.isEmpty()) {
            label = UUID.randomUUID().toString();
        }
        String comment = req.headerOrEmpty("comment");
        boolean twoPc = "true".equals(req.headerOrEmpty("two_phase_commit"));
        Request r = new Request(label, comment, twoPc);
        String authorization = req.header("authorization");
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return r.fail(DorisLoadResult.message("NOT_AUTHORIZED", "no valid Basic authorization"));
        }
        BasicAuth.Result auth = be.auth().check(authorization);
        if (!auth.ok()) {
            // The FE checks the password at begin; the text is the FE's access-denied message (short form).
            return r.fail(DorisLoadResult.message("ANALYSIS_ERROR", auth.error() + " (using password: YES)"));
        }
        boolean hasLength = req.header("content-length") != null;
        boolean chunked = req.headerOrEmpty("transfer-encoding").toLowerCase().contains("chunked");
        // INTERNAL_ERROR for these two, as the assertions of Doris' stream-load regression suite show.
        if (!hasLength && !chunked) {
            return r.fail(DorisLoadResult.message("INTERNAL_ERROR", "content_length is empty and "
                    + "transfer-encoding!=chunked, please set content_length or transfer-encoding=chunked"));
        }
        if (hasLength && chunked) {
            return r.fail(DorisLoadResult.message("INTERNAL_ERROR",
                    "please do not set both content_length and transfer-encoding"));
        }
        String groupCommit = req.headerOrEmpty("group_commit");
        if (!groupCommit.isEmpty()) {
            if (!GROUP_COMMIT_MODES.contains(groupCommit)) {
                return r.fail(DorisLoadResult.message("INVALID_ARGUMENT",
                        "group_commit can only be [async_mode, sync_mode, off_mode]"));
            }
            if (!groupCommit.equals("off_mode") && !twoPc) {
                return r.fail(DorisLoadResult.message("NOT_IMPLEMENTED_ERROR",
                        "group_commit: " + groupCommit + " is not supported by the emulator"));
            }
        }
        long timeoutMs = config.defaultTimeoutMs();
        String timeoutText = req.headerOrEmpty("timeout");
        if (!timeoutText.isEmpty()) {
            long seconds;
            try {
                seconds = Long.parseLong(timeoutText);
            } catch (NumberFormatException e) {
                return r.fail(DorisLoadResult.message("INVALID_ARGUMENT", "Invalid timeout format, " + timeoutText));
            }
            if (seconds < 1 || seconds * 1000 > config.maxTimeoutMs()) {
                return r.fail(DorisLoadResult.message("ANALYSIS_ERROR", "Invalid timeout: " + seconds
                        + ". Timeout should between 1 and " + config.maxTimeoutMs() / 1000 + " seconds"));
            }
            timeoutMs = seconds * 1000;
        }
        // "unknown database, database=D" is the 2PC doc's text; the unknown-table text is a best guess.
        Optional<DatabaseInfo> db = be.catalog().database(dbName);
        if (db.isEmpty()) {
            return r.fail(DorisLoadResult.message("ANALYSIS_ERROR", "unknown database, database=" + dbName));
        }
        Optional<TableSchema> table = be.catalog().table(dbName, tableName);
        if (table.isEmpty()) {
            return r.fail(DorisLoadResult.message("ANALYSIS_ERROR", "Unknown table '" + tableName + "'"));
        }
        TransactionSnapshot txn;
        try {
            txn = be.transactions().begin(dbName, db.get().id(), label, tableName, timeoutMs);
        } catch (TransactionException e) {
            if (e.reason() == TransactionException.Reason.LABEL_ALREADY_USED && e.existing() != null) {
                TransactionSnapshot existing = e.existing();
                return DorisLoadResult.reply(DorisLoadResult.NO_TXN, label, comment, twoPc,
                        DorisLoadResult.LABEL_ALREADY_EXISTS, existingJobStatus(existing.status()),
                        DorisLoadResult.message("LABEL_ALREADY_EXISTS", "Label [" + label
                                + "] has already been used, relate to txn [" + existing.txnId() + "]"),
                        Counters.NONE, null, null);
            }
            return r.fail(DorisLoadResult.message("ANALYSIS_ERROR", e.getMessage()));
        }
        be.faults().pause(FaultOp.STREAM_LOAD);
        return load(req, r.withTxn(txn.txnId()), table.get(), startNs);
    }

    private Reply load(ServerRequest req, Request r, TableSchema table, long startNs) {
        long txnId = r.txnId;
        try {
            StreamLoadFormat format = DorisLoadHeaders.format(req, table);
            byte[] received = req.body();
            if (received.length > config.maxBodyBytes()) {
                return abort(r, DorisLoadResult.message("INVALID_ARGUMENT", "body size " + received.length
                        + " exceed BE's conf `streaming_load_max_mb` " + config.maxBodyBytes() / (1024 * 1024)));
            }
            byte[] body = DorisLoadHeaders.decode(req, received);
            ParsedBatch batch = be.parser().parse(table, format, body);
            ChannelTotals totals = new ChannelTotals(batch.totalRows(), batch.rows().size(), batch.filteredRows(),
                    batch.unselectedRows(), received.length, 1);
            Counters counters = new Counters(batch.totalRows(), batch.rows().size(), batch.filteredRows(),
                    batch.unselectedRows(), received.length, (System.nanoTime() - startNs) / 1_000_000);
            String errorUrl = null;
            String firstError = null;
            if (batch.filteredRows() > 0) {
                errorUrl = be.errorUrl(be.errorLogs().write(batch.errorRows()));
                firstError = batch.errorRows().isEmpty() ? null : batch.errorRows().get(0);
            }
            if (totals.tooManyFiltered(format.maxFilterRatio())) {
                be.transactions().abortIfRunning(txnId, "too many filtered rows");
                return DorisLoadResult.reply(txnId, r.label, r.comment, r.twoPc, DorisLoadResult.FAIL, null,
                        DorisLoadResult.message("DATA_QUALITY_ERROR", "too many filtered rows"), counters, errorUrl,
                        firstError);
            }
            List<TableChanges> changes = List.of(new TableChanges(table, batch.rows()));
            String status;
            if (r.twoPc) {
                be.publisher().holdPrepared(txnId, changes);
                try {
                    be.transactions().prepare(txnId, config.precommitTimeoutMs());
                } catch (TransactionException e) {
                    be.publisher().dropPrepared(txnId);
                    throw e;
                }
                status = DorisLoadResult.SUCCESS;
            } else {
                TransactionPublisher.Outcome outcome = be.publisher().commitAndPublish(txnId, changes);
                status = outcome == TransactionPublisher.Outcome.VISIBLE
                        ? DorisLoadResult.SUCCESS : DorisLoadResult.PUBLISH_TIMEOUT;
            }
            return DorisLoadResult.reply(txnId, r.label, r.comment, r.twoPc, status, null, "OK", counters, errorUrl,
                    null);
        } catch (LoadFormatException e) {
            return abort(r, DorisLoadResult.message(e.statusCode(), e.getMessage()));
        } catch (IOException e) {
            return abort(r, DorisLoadResult.message("INTERNAL_ERROR", "receive body failed: " + e.getMessage()));
        } catch (TransactionException e) {
            // The transaction ended while the load ran (2PC abort, timeout, BE restart).
            Optional<TransactionSnapshot> now = be.transactions().get(txnId);
            String text = now.filter(t -> t.status() == TransactionStatus.ABORTED)
                    .map(t -> "transaction [" + txnId + "] is already aborted, abort reason: " + t.reason())
                    .orElse(e.getMessage());
            return r.fail(DorisLoadResult.message("ANALYSIS_ERROR", text));
        }
    }

    private Reply abort(Request r, String message) {
        be.transactions().abortIfRunning(r.txnId, message);
        return r.fail(message);
    }

    /**
     * RUNNING for PREPARE, PRECOMMITTED, FINISHED for COMMITTED and VISIBLE (docs/protocol.md#doris-replies,
     * #doris-states-labels-and-timers).
     */
    static String existingJobStatus(TransactionStatus status) {
        return switch (status) {
            case PREPARED -> "PRECOMMITTED";
            case COMMITTED, VISIBLE -> "FINISHED";
            default -> "RUNNING";
        };
    }

    /** The reply fields every answer of one request repeats. */
    private record Request(String label, String comment, boolean twoPc, long txnId) {
        Request(String label, String comment, boolean twoPc) {
            this(label, comment, twoPc, DorisLoadResult.NO_TXN);
        }

        Request withTxn(long id) {
            return new Request(label, comment, twoPc, id);
        }

        Reply fail(String message) {
            return DorisLoadResult.fail(txnId, label, comment, twoPc, message);
        }
    }
}
