package io.lockstep.emulator.txn;

/**
 * An immutable copy of one FE transaction at one instant.
 *
 * @param txnId             transaction id (unique in the emulator, increasing)
 * @param database          database name
 * @param label             label
 * @param table             the table of a single-table transaction; null for multi-table
 * @param multiTable        true for {@code transaction_type: multi}
 * @param status            status at the time of the copy
 * @param timeoutMs         begin → prepare budget in ms
 * @param preparedTimeoutMs prepare → commit budget in ms, or -1 before prepare
 * @param beginTimeMs       begin time on the emulator clock (epoch ms)
 * @param reason            abort cause, or null
 */
public record TransactionSnapshot(long txnId, String database, String label, String table, boolean multiTable,
                                  TransactionStatus status, long timeoutMs, long preparedTimeoutMs,
                                  long beginTimeMs, String reason) {
}
