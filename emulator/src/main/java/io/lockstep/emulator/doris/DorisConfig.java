package io.lockstep.emulator.doris;

import io.lockstep.emulator.txn.LabelFormat;
import io.lockstep.emulator.txn.TransactionConfig;

/**
 * Doris FE/BE settings the emulator honours; {@link #defaults()} are Doris'
 * (docs/protocol.md#doris-states-labels-and-timers; FE {@code Config.java}, BE {@code config.h}).
 *
 * @param defaultTimeoutMs     load budget when no {@code timeout} header: {@code stream_load_default_timeout_second}
 *                             = 259 200 s (FE Config; the docs' 600 s is not used, emulator/README.md)
 * @param maxTimeoutMs         largest {@code timeout}: {@code max_stream_load_timeout_second} = 259 200 s
 * @param precommitTimeoutMs   PRECOMMITTED lifetime, from pre-commit: {@code stream_load_default_precommit_timeout_second}
 *                             = 3600 s; when it passes the transaction is aborted ("timeout by txn manager")
 * @param labelKeepMs          finished stream-load labels are forgotten this long after they finished:
 *                             {@code streaming_label_keep_max_second} = 43 200 s (12 h)
 * @param labelNumThreshold    {@code label_num_threshold} = 2000 finished transactions kept per database; older
 *                             ones are forgotten early; 0 disables the count rule
 * @param maxRunningTxnPerDb   {@code max_running_txn_num_per_db} = 1000 (PREPARE + PRECOMMITTED + COMMITTED)
 * @param maxBodyBytes         {@code streaming_load_max_mb} = 10 240 MB per load body
 */
public record DorisConfig(long defaultTimeoutMs, long maxTimeoutMs, long precommitTimeoutMs, long labelKeepMs,
                          int labelNumThreshold, int maxRunningTxnPerDb, long maxBodyBytes) {

    /** Doris' defaults. */
    public static DorisConfig defaults() {
        return new DorisConfig(259_200_000L, 259_200_000L, 3_600_000L, 43_200_000L, 2000, 1000,
                10_240L * 1024 * 1024);
    }

    /** The same settings with another PRECOMMITTED lifetime (ms). */
    public DorisConfig withPrecommitTimeoutMs(long value) {
        return new DorisConfig(defaultTimeoutMs, maxTimeoutMs, value, labelKeepMs, labelNumThreshold,
                maxRunningTxnPerDb, maxBodyBytes);
    }

    /** The same settings with another label retention (ms). */
    public DorisConfig withLabelKeepMs(long value) {
        return new DorisConfig(defaultTimeoutMs, maxTimeoutMs, precommitTimeoutMs, value, labelNumThreshold,
                maxRunningTxnPerDb, maxBodyBytes);
    }

    /** The same settings with another finished-label count per database (0 = no count rule). */
    public DorisConfig withLabelNumThreshold(int value) {
        return new DorisConfig(defaultTimeoutMs, maxTimeoutMs, precommitTimeoutMs, labelKeepMs, value,
                maxRunningTxnPerDb, maxBodyBytes);
    }

    /** The same settings with another running-transaction limit per database. */
    public DorisConfig withMaxRunningTxnPerDb(int value) {
        return new DorisConfig(defaultTimeoutMs, maxTimeoutMs, precommitTimeoutMs, labelKeepMs, labelNumThreshold,
                value, maxBodyBytes);
    }

    /** The same settings with another default load timeout (ms). */
    public DorisConfig withDefaultTimeoutMs(long value) {
        return new DorisConfig(value, maxTimeoutMs, precommitTimeoutMs, labelKeepMs, labelNumThreshold,
                maxRunningTxnPerDb, maxBodyBytes);
    }

    /** The transaction manager settings these mean (Doris label syntax; the pre-commit timeout as prepared timeout). */
    public TransactionConfig transactionConfig() {
        return new TransactionConfig(defaultTimeoutMs, defaultTimeoutMs, precommitTimeoutMs, labelKeepMs,
                maxRunningTxnPerDb, 0, labelNumThreshold, LabelFormat.DORIS_LABEL_REGEX);
    }
}
