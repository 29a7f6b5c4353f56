package io.lockstep.app.event;

import io.lockstep.app.route.TargetTable;
import java.util.Collection;

/**
 * A schema change the job stops at (docs/schema-changes.md): a DDL event with {@link SchemaChangeMode#FAIL} (or one
 * {@link SchemaChangeMode#APPLY} cannot turn into column changes), or a row with a column its target table lacks.
 * The message names the position, the table, the DDL or the column, and the choices. A
 * {@link BadSourceEventException}, so it fails the job at once, without restarts; it is never skipped as bad input.
 */
public class SchemaChangeException extends BadSourceEventException {

    private static final long serialVersionUID = 1L;

    private static final String CHOICES = "start again with --schema-changes apply to change the target through "
            + "--jdbc-url, or change the target table yourself, or use --schema-changes ignore to go on without it";

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
                + event.dataCollection() + "': " + event.getRow() + "; the transactions before it are committed, the "
                + "target was not changed: " + CHOICES);
    }

    /**
     * @param event the {@link SourceEventKind#SCHEMA_CHANGE} event
     * @return the error of {@link SchemaChangeMode#APPLY} for a DDL event that names no loaded table or lists no
     *     columns, or whose target table cannot be read
     */
    public static SchemaChangeException notApplicable(SourceEvent event) {
        return new SchemaChangeException(event.describePosition() + ": schema change of table '"
                + event.dataCollection() + "': " + event.getRow() + "; --schema-changes apply cannot apply it (only "
                + "ADD/DROP COLUMN of a loaded table whose event lists its columns); the transactions before it are "
                + "committed: change the target yourself, then start again with --schema-changes ignore");
    }

    /**
     * @param event the row event
     * @param target its target table
     * @param columns the row's columns the target table lacks
     * @return the error naming the position, both tables, the columns and the choices
     */
    public static SchemaChangeException unknownColumns(SourceEvent event, TargetTable target,
            Collection<String> columns) {
        String names = columns.size() == 1 ? "column '" + columns.iterator().next() + "'"
                : "columns " + String.join(", ", columns.stream().map(c -> "'" + c + "'").toList());
        return new SchemaChangeException(event.describePosition() + ": a row of source table " + event.dataCollection()
                + " has " + names + " that target table " + target.database() + "." + target.table() + " lacks; the "
                + "transactions before it are committed, nothing of its transaction is loaded: " + CHOICES);
    }
}
