package io.lockstep.core.client;

import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Apache Doris wire facts both Doris dialects share
 * (docs/protocol.md#apache-doris-stream-load-with-two-phase-commit): paths, header names, the label states of
 * {@code get_load_state} and the txn id hidden in a "Label Already Exists" message. Stateless.
 */
final class DorisProtocol {
    /**
     * Stream load header that makes the load end PRECOMMITTED (docs/protocol.md#doris-endpoints-redirects-and-headers;
     * exact string {@code true}).
     */
    static final String TWO_PHASE_COMMIT = "two_phase_commit";
    /**
     * 2PC endpoint header: {@code commit} or {@code abort} (docs/protocol.md#doris-endpoints-redirects-and-headers,
     * #doris-replies).
     */
    static final String TXN_OPERATION = "txn_operation";
    /** Stream load reply status of a load that was taken (docs/protocol.md#doris-replies). */
    static final String SUCCESS = "Success";
    /** Stream load reply status: committed, visible later (non-2PC loads only; docs/protocol.md#doris-replies). */
    static final String PUBLISH_TIMEOUT = "Publish Timeout";
    /**
     * Stream load reply status of a label held by a non-aborted transaction
     * (docs/protocol.md#doris-states-labels-and-timers).
     */
    static final String LABEL_ALREADY_EXISTS = "Label Already Exists";

    /** {@code Label [<label>] has already been used, relate to txn [<txnId>]} (docs/protocol.md#doris-replies;
     * Doris FE {@code LabelAlreadyUsedException}). */
    private static final Pattern CONFLICT_TXN = Pattern.compile("relate to txn \\[(\\d+)]");

    private DorisProtocol() {
    }

    /** {@code /api/{db}/{table}/_stream_load} (docs/protocol.md#doris-endpoints-redirects-and-headers). */
    static String streamLoadPath(String database, String table) {
        return "/api/" + TransactionHeaders.encode(database) + "/" + TransactionHeaders.encode(table) + "/_stream_load";
    }

    /**
     * {@code /api/{db}/_stream_load_2pc}: commit or abort a PRECOMMITTED transaction
     * (docs/protocol.md#doris-endpoints-redirects-and-headers).
     */
    static String twoPhaseCommitPath(String database) {
        return "/api/" + TransactionHeaders.encode(database) + "/_stream_load_2pc";
    }

    /** {@code /api/{db}/get_load_state?label=L} (docs/protocol.md#doris-replies). */
    static String loadStatePath(String database, String label) {
        return "/api/" + TransactionHeaders.encode(database) + "/get_load_state?label="
                + TransactionHeaders.encode(label);
    }

    /**
     * Maps a Doris transaction status to the shared {@link LabelState}: {@code PRECOMMITTED} is
     * {@link LabelState#PREPARED} (held until commit or abort), the other names are the same as StarRocks'
     * (docs/protocol.md#doris-states-labels-and-timers); anything unrecognised is {@link LabelState#UNKNOWN}.
     */
    static LabelState labelState(String dorisStatus) {
        if (dorisStatus == null) {
            return LabelState.UNKNOWN;
        }
        String name = dorisStatus.trim().toUpperCase(Locale.ROOT);
        return name.equals("PRECOMMITTED") ? LabelState.PREPARED : LabelState.parse(name);
    }

    /** The txn id a "Label Already Exists" message names ({@code relate to txn [id]}), if any. */
    static OptionalLong conflictingTxnId(String message) {
        if (message == null) {
            return OptionalLong.empty();
        }
        Matcher m = CONFLICT_TXN.matcher(message);
        if (!m.find()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(m.group(1)));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** {@code ExistingJobStatus} upper-cased, "" when absent: RUNNING, PRECOMMITTED or FINISHED. */
    static String existingJobStatus(ServerReply reply) {
        String existing = reply.text("ExistingJobStatus");
        return existing == null ? "" : existing.trim().toUpperCase(Locale.ROOT);
    }
}
