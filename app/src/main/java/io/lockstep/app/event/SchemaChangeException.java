package io.lockstep.app.event;

/**
 * A schema change in the input with {@link SchemaChangeMode#FAIL}: the message names the position, the table,
 * the DDL and what to do. A {@link BadSourceEventException}, so it fails the job at once, without restarts.
 */
public class SchemaChangeException extends BadSourceEventException {

    private static final long serialVersionUID = 1L;

    /** @param message position, table, DDL and the choices */
    public SchemaChangeException(String message) {
        super(message);
    }

    /**
     * @param event the {@link SourceEventKind#SCHEMA_CHANGE} event
     * @return the error naming its position, table, DDL and the choices
     */
    public static SchemaChangeException of(SourceEvent event) {
        return new SchemaChangeException(event.describePosition() + ": schema change of table '"
                + event.dataCollection() + "': " + event.getRow() + "; the target was not changed: change the target "
                + "table the same way, then start again with --schema-changes ignore to go past it (or use ignore "
                + "to pass schema changes always)");
    }
}
