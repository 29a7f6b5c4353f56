package io.lockstep.app.event;

/**
 * What the job does when the input changes a table's schema: a DDL event (Debezium {@code ddl}, Maxwell
 * {@code table-*}) or a row with a column the target table lacks (docs/schema-changes.md).
 */
public enum SchemaChangeMode {
    /**
     * Stop at a clean boundary: the complete transactions before the change are committed, nothing of the
     * changed transaction is loaded, and the job fails with one line naming the table, the DDL or column and the
     * choices (the default: a column the target lacks would otherwise be dropped silently, since StarRocks ignores
     * unknown JSON keys). A DDL event whose columns the target already has passes.
     */
    FAIL,
    /**
     * Go on: a DDL event with a WARN naming the table and the DDL; a row column the target lacks is left out of
     * the load, with one WARN per table and column.
     */
    IGNORE,
    /**
     * Change the target: ADD/DROP COLUMN through {@code jdbc-url}, as a barrier (everything before it committed,
     * the DDL applied, then the rows after it), skipping what the target's real schema already has.
     */
    APPLY
}
