package io.lockstep.app.event;

/** What the job does when the input carries a schema change (a DDL event: Debezium {@code ddl}, Maxwell {@code table-*}). */
public enum SchemaChangeMode {
    /**
     * Stop at a clean boundary: the complete transactions before the DDL are committed, then the job fails with
     * one line naming the table, the DDL and the choices (the default: a column the target lacks would otherwise
     * be dropped silently, since StarRocks ignores unknown JSON keys).
     */
    FAIL,
    /** Go on past it with a WARN naming the table and the DDL (the target already has the change, or none is wanted). */
    IGNORE
}
