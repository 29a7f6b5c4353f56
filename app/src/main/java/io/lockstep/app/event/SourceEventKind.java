package io.lockstep.app.event;

/** What a decoded {@link SourceEvent} is. */
public enum SourceEventKind {
    /** Debezium transaction BEGIN (transaction topic record with {@code status: BEGIN}). */
    BEGIN,
    /** One changed row. */
    ROW,
    /** Debezium transaction END (with {@code event_count} and per-table counts). */
    END
}
