package io.lockstep.app.route;

/** What happens to a row of a source table that the table map does not name. */
public enum UnknownTableMode {
    /** Fail the job, naming the table and the row's position (the default). */
    FAIL,
    /** Drop the table's rows; a WARN names the table once. Debezium counts still include them. */
    SKIP
}
