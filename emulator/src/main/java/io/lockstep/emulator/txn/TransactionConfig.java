package io.lockstep.emulator.txn;

/**
 * Timer and limit settings of the FE transaction manager; {@link #defaults()} are StarRocks'
 * (docs/protocol.md#timeouts-limits-and-concurrency).
 *
 * @param defaultTimeoutMs           begin {@code timeout} when the header is absent:
 *                                   {@code stream_load_default_timeout_second} = 600 s
 * @param multiTableDefaultTimeoutMs multi-table begin {@code timeout} when absent: 20 000 ms (StarRocks FE
 *                                   {@code                                   TransactionLoadAction})
 * @param defaultPreparedTimeoutMs   {@code prepared_transaction_default_timeout_second} = 86 400 s (Doris:
 *                                   {@code stream_load_default_precommit_timeout_second})
 * @param labelKeepMs                {@code label_keep_max_second} = 259 200 s (3 days): a finished label is
 *                                   forgotten (UNKNOWN, reusable) this long after it finished
 * @param maxRunningTxnPerDb         {@code max_running_txn_num_per_db} = 1000
 * @param commitTimeoutMs            FE-side commit wait for publish when no {@code timeout} header: 20 000 ms
 * @param labelNumThreshold          Doris {@code label_num_threshold}: when a database keeps more finished
 *                                   transactions than this, the oldest are forgotten early; 0 = no count rule
 *                                   (StarRocks' default here)
 * @param labelRegex                 the label syntax every begin checks ({@link LabelFormat})
 */
public record TransactionConfig(long defaultTimeoutMs, long multiTableDefaultTimeoutMs,
                                long defaultPreparedTimeoutMs, long labelKeepMs, int maxRunningTxnPerDb,
                                long commitTimeoutMs, int labelNumThreshold, String labelRegex) {

    /** StarRocks' settings: no finished-label count rule, StarRocks' label syntax. */
    public TransactionConfig(long defaultTimeoutMs, long multiTableDefaultTimeoutMs, long defaultPreparedTimeoutMs,
                             long labelKeepMs, int maxRunningTxnPerDb, long commitTimeoutMs) {
        this(defaultTimeoutMs, multiTableDefaultTimeoutMs, defaultPreparedTimeoutMs, labelKeepMs, maxRunningTxnPerDb,
                commitTimeoutMs, 0, LabelFormat.LABEL_REGEX);
    }

    /** StarRocks' defaults. */
    public static TransactionConfig defaults() {
        return new TransactionConfig(600_000L, 20_000L, 86_400_000L, 259_200_000L, 1000, 20_000L);
    }
}
