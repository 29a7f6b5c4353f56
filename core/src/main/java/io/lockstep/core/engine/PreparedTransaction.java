package io.lockstep.core.engine;

import io.lockstep.core.client.TransactionRef;

import java.util.Objects;

/**
 * A single-table transaction prepared at a checkpoint (exactly-once): what the Flink layer keeps in its state and later
 * commits or aborts by label (docs/protocol.md#what-the-official-starrocks-connector-does, 2PC with Flink).
 *
 * @param database target database
 * @param table    target table
 * @param label    the label, from {@code LabelGenerator#exactlyOnceLabel}
 */
public record PreparedTransaction(String database, String table, String label) {
    public PreparedTransaction {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(label, "label");
    }

    /** The transaction this names. */
    public TransactionRef ref() {
        return TransactionRef.singleTable(database, table, label);
    }
}
