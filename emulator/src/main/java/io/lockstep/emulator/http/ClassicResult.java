package io.lockstep.emulator.http;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The classic {@code _stream_load} reply vocabulary ({@code StreamLoadContext::to_json},
 * docs/protocol.md#starrocks-classic-stream-load): human-text {@code Status} {@code Success}, {@code Publish Timeout},
 * {@code Label Already Exists} (with {@code ExistingJobStatus}) or {@code Fail}, and the fixed set of counters.
 */
public final class ClassicResult {
    public static final String SUCCESS = "Success";
    public static final String PUBLISH_TIMEOUT = "Publish Timeout";
    public static final String LABEL_ALREADY_EXISTS = "Label Already Exists";
    public static final String FAIL = "Fail";

    /** Counters of one classic load; all times in ms, bytes in bytes. */
    public record Counters(long totalRows, long loadedRows, long filteredRows, long unselectedRows,
                           long loadBytes, long loadTimeMs) {
        public static final Counters NONE = new Counters(0, 0, 0, 0, 0, 0);
    }

    private ClassicResult() {
    }

    /**
     * @param txnId             transaction id, or -1 when none was begun
     * @param status            one of the four status texts
     * @param existingJobStatus for Label Already Exists: RUNNING or FINISHED; else null
     * @param message           "OK" on success, else the error
     * @param errorUrl          error log URL or null
     */
    public static Reply reply(long txnId, String label, String status, String existingJobStatus, String message,
                              Counters counters, String errorUrl) {
        ObjectNode json = JsonText.object();
        json.put("TxnId", txnId);
        json.put("Label", label);
        json.put("Status", status);
        if (existingJobStatus != null) {
            json.put("ExistingJobStatus", existingJobStatus);
        }
        json.put("Message", message);
        json.put("NumberTotalRows", counters.totalRows());
        json.put("NumberLoadedRows", counters.loadedRows());
        json.put("NumberFilteredRows", counters.filteredRows());
        json.put("NumberUnselectedRows", counters.unselectedRows());
        json.put("LoadBytes", counters.loadBytes());
        json.put("LoadTimeMs", counters.loadTimeMs());
        json.put("BeginTxnTimeMs", 0);
        json.put("StreamLoadPlanTimeMs", 0);
        json.put("ReadDataTimeMs", 0);
        json.put("WriteDataTimeMs", 0);
        json.put("CommitAndPublishTimeMs", 0);
        if (errorUrl != null) {
            json.put("ErrorURL", errorUrl);
        }
        return Reply.json(JsonText.write(json));
    }
}
