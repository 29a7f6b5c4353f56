package io.lockstep.app.event;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Derives the transaction key: the part of a source transaction id that is equal on every event of
 * the transaction.
 *
 * <p>PostgreSQL ids are {@code txId:LSN} and the LSN part differs between BEGIN, the data events and END of one
 * transaction (docs/input-formats.md#transaction-ids; Debezium {@code PostgresTransactionMonitor.adjustTxId}); the key
 * is the {@code txId}. An id is taken to be PostgreSQL-style when it is exactly two decimal numbers joined by one
 * colon: MySQL GTIDs ({@code uuid:seq}), binlog positions ({@code file=..,pos=..}), MariaDB GTIDs ({@code 0-1-4711})
 * and SQL Server LSNs (three colon-separated hex parts) never match, and are kept whole.
 */
public final class TransactionIds {

    private static final Pattern POSTGRES_ID = Pattern.compile("(\\d+):(\\d+)");

    private TransactionIds() {
    }

    /**
     * @param transactionId the id as found in the event, or {@code null}
     * @return the stable key ({@code txId} for a PostgreSQL id, else the id itself), or {@code null}
     */
    public static String key(String transactionId) {
        if (transactionId == null) {
            return null;
        }
        Matcher m = POSTGRES_ID.matcher(transactionId);
        return m.matches() ? m.group(1) : transactionId;
    }
}
