package io.lockstep.emulator.doris;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.emulator.http.ClassicResult.Counters;
import io.lockstep.emulator.http.JsonText;
import io.lockstep.emulator.http.Reply;

/**
 * The BE's {@code _stream_load} reply (docs/protocol.md#doris-replies; BE {@code StreamLoadContext::to_json}): HTTP
 * 200, a pretty-printed JSON object and a trailing newline, keys in this order and casing: {@code TxnId},
 * {@code Label}, {@code Comment}, {@code TwoPhaseCommit} (a string), {@code Status}, {@code ExistingJobStatus} (only
 * with {@code Label Already Exists}), {@code Message}, the row and byte counters, the time counters, then
 * {@code ErrorURL} and {@code FirstErrorMsg} when rows were filtered. On failure {@code NumberLoadedRows} is 0.
 */
final class DorisLoadResult {
    static final String SUCCESS = "Success";
    static final String PUBLISH_TIMEOUT = "Publish Timeout";
    static final String LABEL_ALREADY_EXISTS = "Label Already Exists";
    static final String FAIL = "Fail";
    /** {@code TxnId} of a load that never began a transaction (BE {@code default_txn_id}). */
    static final long NO_TXN = -1;

    private final ObjectNode json = JsonText.object();

    private DorisLoadResult() {
    }

    /**
     * @param txnId             the transaction id, or {@link #NO_TXN}
     * @param comment           the {@code comment} header ("" when absent)
     * @param twoPhaseCommit    whether the request asked for 2PC
     * @param status            Success, Publish Timeout, Label Already Exists or Fail
     * @param existingJobStatus RUNNING, PRECOMMITTED or FINISHED with Label Already Exists; else null
     * @param message           "OK" on success, else {@code [ERROR_CODE]text}
     * @param counters          rows and bytes; loaded rows are written as 0 unless the status is a success
     * @param errorUrl          the error log URL, or null
     * @param firstErrorMsg     the first filtered row's reason, or null
     */
    static Reply reply(long txnId, String label, String comment, boolean twoPhaseCommit, String status,
                       String existingJobStatus, String message, Counters counters, String errorUrl,
                       String firstErrorMsg) {
        DorisLoadResult r = new DorisLoadResult();
        ObjectNode json = r.json;
        json.put("TxnId", txnId);
        json.put("Label", label);
        json.put("Comment", comment);
        json.put("TwoPhaseCommit", String.valueOf(twoPhaseCommit));
        json.put("Status", status);
        if (existingJobStatus != null) {
            json.put("ExistingJobStatus", existingJobStatus);
        }
        json.put("Message", message);
        boolean ok = SUCCESS.equals(status) || PUBLISH_TIMEOUT.equals(status);
        json.put("NumberTotalRows", counters.totalRows());
        json.put("NumberLoadedRows", ok ? counters.loadedRows() : 0);
        json.put("NumberFilteredRows", counters.filteredRows());
        json.put("NumberUnselectedRows", counters.unselectedRows());
        json.put("LoadBytes", counters.loadBytes());
        json.put("LoadTimeMs", counters.loadTimeMs());
        json.put("BeginTxnTimeMs", 0);
        json.put("StreamLoadPutTimeMs", 0);
        json.put("ReadDataTimeMs", 0);
        json.put("WriteDataTimeMs", 0);
        json.put("ReceiveDataTimeMs", 0);
        json.put("CommitAndPublishTimeMs", 0);
        if (errorUrl != null) {
            json.put("ErrorURL", errorUrl);
        }
        if (firstErrorMsg != null) {
            json.put("FirstErrorMsg", firstErrorMsg);
        }
        return Reply.json(JsonText.write(json) + "\n");
    }

    /** A failure before or without rows: zero counters. */
    static Reply fail(long txnId, String label, String comment, boolean twoPhaseCommit, String message) {
        return reply(txnId, label, comment, twoPhaseCommit, FAIL, null, message, Counters.NONE, null, null);
    }

    /** {@code [CODE]text}, the BE's {@code Status::to_string_no_stack}. */
    static String message(String code, String text) {
        return "[" + code + "]" + text;
    }
}
