package io.lockstep.app.event;

/** What a decoded {@link SourceEvent} is. */
public enum SourceEventKind {
    /** Debezium transaction BEGIN (transaction topic record with {@code status: BEGIN}). */
    BEGIN,
    /** One changed row. */
    ROW,
    /** Debezium transaction END (with {@code event_count} and per-table counts). */
    END,
    /**
     * A message that could not be decoded, with {@code --bad-input fail}: {@code row} holds the reason (position
     * and problem, never the message's content). It travels in order with its partition's events so the
     * transactions before it still load before the job fails ({@code TransactionAssembler}).
     */
    UNDECODABLE,
    /**
     * A schema change (Debezium {@code ddl}/{@code tableChanges}, Maxwell {@code table-*}/{@code database-*}):
     * {@code sourceDatabase}, {@code sourceTable} (when the event names one) and {@code row} = the DDL statement
     * (at most 200 characters); when the event describes the table, also {@code schemaColumns} (its columns
     * after the change) and {@code droppedColumns}. What happens to it is {@code SchemaChangeMode}'s choice, in the assembler.
     */
    SCHEMA_CHANGE
}
