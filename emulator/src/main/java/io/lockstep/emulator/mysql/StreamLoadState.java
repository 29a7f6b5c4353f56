package io.lockstep.emulator.mysql;

import io.lockstep.emulator.txn.TransactionStatus;

/**
 * The state name StarRocks' FE shows for a stream load task ({@code SHOW STREAM LOAD}, {@code information_schema.loads})
 * given its transaction's status (fe-core {@code load/streamload/StreamLoadTask.State}: LOADING, PREPARED, COMMITED
 * (sic), FINISHED, CANCELLED).
 */
final class StreamLoadState {
    private StreamLoadState() {
    }

    static String of(TransactionStatus status) {
        return switch (status) {
            case PREPARE -> "LOADING";
            case PREPARED -> "PREPARED";
            case COMMITTED -> "COMMITED";
            case VISIBLE -> "FINISHED";
            case ABORTED -> "CANCELLED";
            case UNKNOWN -> "UNKNOWN";
        };
    }

    /** True for FINISHED and CANCELLED, the states {@code SHOW STREAM LOAD} without {@code ALL} leaves out. */
    static boolean finalState(TransactionStatus status) {
        return status == TransactionStatus.VISIBLE || status == TransactionStatus.ABORTED;
    }
}
