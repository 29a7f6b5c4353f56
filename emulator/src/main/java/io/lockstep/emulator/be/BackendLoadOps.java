package io.lockstep.emulator.be;

import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.http.BeResult;
import io.lockstep.emulator.http.ServerRequest;
import io.lockstep.emulator.load.LoadFormat;
import io.lockstep.emulator.load.LoadFormatException;
import io.lockstep.emulator.load.ParsedBatch;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * The BE's {@code PUT /api/transaction/load} (StarRocks BE {@code TransactionStreamLoadAction}; docs/protocol.md
 * #load-headers, #timeouts-limits-and-concurrency, #multi-table-transactions): one request in flight per channel,
 * identical load parameters across loads, cumulative size limits, and any failure rolls the whole transaction back.
 * Rows are parsed by the data plane's {@link io.lockstep.emulator.load.LoadBodyParser} and accumulated in the channel;
 * data-quality filtering is judged at prepare/commit. Thread-safe.
 */
public final class BackendLoadOps {
    private final Backend be;
    private final BackendTransactionOps txnOps;

    public BackendLoadOps(Backend backend, BackendTransactionOps txnOps) {
        this.be = backend;
        this.txnOps = txnOps;
    }

    /** Executes one load request. */
    public BeResult load(ServerRequest req) {
        String label = req.headerOrEmpty("label");
        if (label.isEmpty()) {
            return BeResult.error(BeResult.INVALID_ARGUMENT, "Invalid label ");
        }
        Optional<LoadContext> found = be.contexts().get(label).filter(c -> c.multiTable() == req.isMultiTable());
        if (found.isEmpty()) {
            return BeResult.error(BeResult.TXN_NOT_EXISTS, "Transaction with label " + label + " not exists");
        }
        LoadContext ctx = found.get();
        String db = req.headerOrEmpty("db");
        if (!db.equals(ctx.database())) {
            return BeResult.error(BeResult.INVALID_ARGUMENT,
                    "Request database " + db + " not equal transaction database " + ctx.database());
        }
        String tableName = req.headerOrEmpty("table");
        TableChannel channel;
        if (ctx.multiTable()) {
            Optional<TableChannel> c = ctx.channel(tableName);
            if (c.isEmpty()) {
                return BeResult.error(BeResult.TXN_NOT_EXISTS,
                        "transaction with label " + label + " and table " + tableName + " not exists");
            }
            channel = c.get();
        } else {
            if (!tableName.equals(ctx.table())) {
                return BeResult.error(BeResult.INVALID_ARGUMENT,
                        "Request table " + tableName + " not equal transaction table " + ctx.table());
            }
            channel = ctx.singleChannel();
        }
        if (!channel.tryEnter()) {
            return BeResult.error(BeResult.TXN_IN_PROCESSING, "Transaction in processing, please retry later")
                    .label(label);
        }
        try {
            if (ctx.closedForCommit()) {
                // Checked while holding the channel: a multi-table commit closes the context, then waits for
                // each channel, so a load admitted here is part of the commit and a later one is refused.
                return BeResult.error(BeResult.INTERNAL_ERROR, "transaction " + ctx.label()
                        + " is committing, can not accept new loads");
            }
            ctx.touch(be.clock().millis());
            be.faults().pause(FaultOp.LOAD);
            return loadEntered(req, ctx, channel);
        } finally {
            ctx.touch(be.clock().millis());
            channel.exit();
        }
    }

    private BeResult loadEntered(ServerRequest req, LoadContext ctx, TableChannel channel) {
        if (!txnOps.isOpen(ctx)) {
            be.contexts().remove(ctx.label(), ctx.txnId());
            return BeResult.error(BeResult.ABORTED, "current transaction is aborted");
        }
        LoadFormat format;
        try {
            format = LoadFormat.fromHeaders(req.headers());
        } catch (LoadFormatException e) {
            return txnOps.fail(ctx, e.statusCode(), e.getMessage(), null);
        }
        LoadFormat planned;
        try {
            planned = channel.plan(format);
        } catch (LoadParametersMismatch e) {
            return txnOps.fail(ctx, BeResult.INTERNAL_ERROR, e.getMessage(), null);
        }
        boolean jsonChecked = jsonSizeChecked(req.headers());
        long declared = contentLength(req);
        if (declared >= 0) {
            BeResult tooBig = checkSize(ctx, channel, declared, jsonChecked);
            if (tooBig != null) {
                return tooBig;
            }
        }
        byte[] body;
        try {
            body = req.body();
        } catch (IOException e) {
            return txnOps.fail(ctx, BeResult.INTERNAL_ERROR,
                    "receive body failed: " + e.getMessage(), null);
        }
        if (declared < 0) {
            BeResult tooBig = checkSize(ctx, channel, body.length, jsonChecked);
            if (tooBig != null) {
                return tooBig;
            }
        }
        ParsedBatch batch;
        try {
            batch = be.parser().parse(channel.table(), planned, body, channel.carry());
        } catch (LoadFormatException e) {
            return txnOps.fail(ctx, e.statusCode(), e.getMessage(), null);
        }
        channel.add(batch, body.length, jsonChecked);
        return BeResult.ok().label(ctx.label())
                .field("TxnId", ctx.txnId())
                .field("LoadBytes", (long) body.length)
                .field("StreamLoadPlanTimeMs", 0)
                .field("ReceivedDataTimeMs", 0);
    }

    private BeResult checkSize(LoadContext ctx, TableChannel channel, long bytes, boolean jsonChecked) {
        long total = channel.loadBytes() + bytes;
        if (total > be.config().maxBodyBytes()) {
            return txnOps.fail(ctx, BeResult.INTERNAL_ERROR, "body exceed max size: "
                    + be.config().maxBodyBytes() + ", limit: " + be.config().maxBodyBytes(), null);
        }
        long jsonTotal = channel.jsonBytes() + bytes;
        if (jsonChecked && jsonTotal > be.config().maxJsonBatchBytes()) {
            return txnOps.fail(ctx, BeResult.INTERNAL_ERROR, "The size of this batch exceed the max size ["
                    + be.config().maxJsonBatchBytes() + "]  of json type data  data [ " + jsonTotal
                    + " ]. Set ignore_json_size to skip the check, although it may lead huge memory consuming.",
                    null);
        }
        return null;
    }

    /**
     * True when the 100 MB JSON batch check applies: {@code format: json} without {@code ignore_json_size: true}
     * (docs/protocol.md#load-headers).
     */
    static boolean jsonSizeChecked(Map<String, String> headers) {
        String format = headers.getOrDefault("format", "csv").trim();
        String ignore = headers.getOrDefault("ignore_json_size", "false").trim();
        return format.equalsIgnoreCase("json") && !ignore.equalsIgnoreCase("true");
    }

    private static long contentLength(ServerRequest req) {
        String v = req.header("content-length");
        if (v == null) {
            return -1;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
