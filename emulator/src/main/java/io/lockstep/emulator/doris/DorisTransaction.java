package io.lockstep.emulator.doris;

import io.lockstep.emulator.txn.TransactionSnapshot;

/**
 * An immutable copy of one Doris load transaction, for test assertions.
 *
 * @param txnId              transaction id ({@code TxnId})
 * @param database           database name
 * @param label              label
 * @param table              the loaded table
 * @param status             status at the time of the copy
 * @param timeoutMs          load ({@code PREPARE}) budget in ms, from the {@code timeout} header or the default
 * @param precommitTimeoutMs PRECOMMITTED lifetime in ms, or -1 before pre-commit
 * @param beginTimeMs        begin time on the emulator clock (epoch ms)
 * @param reason             abort reason (e.g. {@code User Abort}, {@code timeout by txn manager}), or null
 */
public record DorisTransaction(long txnId, String database, String label, String table, DorisTxnStatus status,
                               long timeoutMs, long precommitTimeoutMs, long beginTimeMs, String reason) {

    /** The Doris view of a transaction manager snapshot (PREPARED is named PRECOMMITTED). */
    public static DorisTransaction of(TransactionSnapshot t) {
        return new DorisTransaction(t.txnId(), t.database(), t.label(), t.table(), DorisTxnStatus.of(t.status()),
                t.timeoutMs(), t.preparedTimeoutMs(), t.beginTimeMs(), t.reason());
    }
}
