package io.lockstep.emulator.be;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.emulator.http.JsonText;
import io.lockstep.emulator.http.Reply;
import io.lockstep.emulator.txn.TransactionSnapshot;
import javax.annotation.concurrent.ThreadSafe;

/**
 * The BE's diagnostic {@code POST /api/transaction/list}: one entry per live load context
 * (docs/protocol.md#starrocks-transaction-stream-load; BE {@code TransactionMgr::list_transactions}). StarRocks writes
 * the objects back to back; the emulator writes them as a JSON array so that the reply parses. Timestamps are in epoch
 * seconds, as the BE writes them.
 *
 * <p>The row counters count complete records only: a last record without a row delimiter stays in the stream carry (the
 * next load of the transaction may continue it, docs/protocol.md#data-formats-and-filtered-rows; see
 * {@code LoadStreamCarry}) and is counted when prepare or commit ends the stream. So a 2-row CSV load without a
 * trailing newline lists {@code NumberTotalRows} 1 here while prepare then reports 2.
 */
@ThreadSafe
public final class TransactionList {
    private final Backend be;

    public TransactionList(Backend backend) {
        this.be = backend;
    }

    /** The live contexts, in no particular order. */
    public Reply list() {
        ArrayNode out = JsonText.MAPPER.createArrayNode();
        for (LoadContext ctx : be.contexts().all()) {
            ObjectNode json = out.addObject();
            boolean busy = ctx.inProcessing();
            if (!busy) {
                json.put("Status", ctx.abortMessage() == null ? "OK" : "ABORTED");
            }
            json.put("InProcessing", busy);
            json.put("Label", ctx.label());
            json.put("TxnId", ctx.txnId());
            ChannelTotals t = ctx.totals();
            json.put("NumberTotalRows", t.totalRows());
            json.put("NumberLoadedRows", t.loadedRows());
            json.put("NumberFilteredRows", t.filteredRows());
            json.put("NumberUnselectedRows", t.unselectedRows());
            json.put("LoadBytes", t.loadBytes());
            json.put("BeginTimestamp", ctx.beginTimeMs() / 1000);
            json.put("LastActiveTimestamp", ctx.lastActiveMs() / 1000);
            json.put("TransactionTimeoutSec", be.transactions().get(ctx.txnId())
                    .map(TransactionSnapshot::timeoutMs).orElse(0L) / 1000);
            json.put("IdleTransactionTimeoutSec", ctx.idleTimeoutMs() > 0 ? ctx.idleTimeoutMs() / 1000 : -1);
        }
        return Reply.json(JsonText.write(out));
    }
}
