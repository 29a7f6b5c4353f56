package io.lockstep.core.restart;

import java.util.List;

/**
 * What {@link LingeringTransactionAborter#abortLingering} did, label by label.
 *
 * @param rolledBack labels found PREPARE/PREPARED and rolled back
 * @param cancelled  labels whose rollback failed and which {@code _cancel} then ended
 * @param committed  labels found COMMITTED/VISIBLE and left alone (restored from an older checkpoint)
 * @param leftOpen   labels still open after rollback and cancel failed, or whose state could not be read: the
 *                   server's timeout will end them
 * @param probes     label-state queries sent
 */
public record LingeringAbortReport(List<String> rolledBack, List<String> cancelled, List<String> committed,
                                   List<String> leftOpen, int probes) {
    public LingeringAbortReport {
        rolledBack = List.copyOf(rolledBack);
        cancelled = List.copyOf(cancelled);
        committed = List.copyOf(committed);
        leftOpen = List.copyOf(leftOpen);
    }

    /** Labels this run ended (rolled back or cancelled). */
    public int ended() {
        return rolledBack.size() + cancelled.size();
    }
}
