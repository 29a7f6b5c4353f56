package io.lockstep.core.client;

import java.util.Objects;

/**
 * Names one server-side transaction: the label within its database, and the mode it runs in.
 *
 * <p>A single-table transaction names its table; a multi-table transaction ({@code transaction_type: multi}, StarRocks
 * 4.0+, docs/protocol.md#multi-table-transactions) has no table: each load names its own.
 *
 * @param database   target database (labels are scoped per database)
 * @param table      target table for single-table transactions; null for multi-table transactions
 * @param label      the label, {@code ^[-\w]{1,128}$}
 */
public record TransactionRef(String database, String table, String label) {

    public TransactionRef {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(label, "label");
    }

    /** A multi-table transaction: one label for every table of {@code database}. */
    public static TransactionRef multiTable(String database, String label) {
        return new TransactionRef(database, null, label);
    }

    /** A single-table transaction. */
    public static TransactionRef singleTable(String database, String table, String label) {
        return new TransactionRef(database, Objects.requireNonNull(table, "table"), label);
    }

    /** True for {@code transaction_type: multi}. */
    public boolean multiTable() {
        return table == null;
    }

    @Override
    public String toString() {
        return multiTable() ? "label " + label + " (db " + database + ", multi-table)"
                : "label " + label + " (table " + database + "." + table + ")";
    }
}
