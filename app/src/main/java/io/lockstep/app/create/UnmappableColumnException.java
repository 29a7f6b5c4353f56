package io.lockstep.app.create;

/**
 * A source column whose every value no StarRocks column type holds exactly (e.g. PostgreSQL {@code numeric} without
 * a precision, a DECIMAL wider than 38 digits, binary and geometry types). The message is one line naming
 * {@code db.table.column}, the source type and the fix (a {@code --column-type SRC_DB.TABLE.COLUMN=STARROCKS_TYPE}
 * override, or a setting of the source); docs/table-creation.md#type-mapping lists the refused types.
 */
public final class UnmappableColumnException extends TableRefusedException {

    private static final long serialVersionUID = 1L;

    /**
     * @param table the source table
     * @param column the column
     * @param type the source type as the message names it, e.g. {@code numeric} or {@code bytes
     *     (io.debezium.data.Bits)}
     * @param reason why no StarRocks type holds every value, e.g. {@code has no precision}
     * @param fix what to do, e.g. {@code give it a precision in the source}; the message adds the override
     */
    public UnmappableColumnException(SourceTable table, SourceColumn column, String type, String reason, String fix) {
        super("column " + table.qualifiedName() + "." + column.name() + " (" + type + ") " + reason
                + "; table creation refuses it: " + fix + " (override: --column-type " + table.qualifiedName() + "."
                + column.name() + "=STARROCKS_TYPE)");
    }
}
