package io.lockstep.app.schema;

import io.lockstep.flink.row.ControlMark;
import io.lockstep.app.route.TargetTable;
import java.util.ArrayList;
import java.util.List;

/**
 * Not a row: the mark an assembler sends down its partition's stream with {@code --schema-changes apply} when a
 * target table must change before the rows that follow can load: the columns to add (with their StarRocks types)
 * and to drop. It goes between two source transactions; the job's sink ({@code io.lockstep.app.job.FailFastSink})
 * commits everything buffered before it, applies it through {@link SchemaApplier} (checked against the table's
 * real columns, so a replay applies nothing twice), then goes on. {@code database}/{@code table} name the target
 * table; {@code sourcePartition} the partition it came from.
 *
 * <p>A {@link ControlMark} (a Flink POJO), so it travels on the rows' channel in order with them; never a row.
 */
public class SchemaChangeBarrier extends ControlMark {

    private String database;
    private String table;
    private String addColumns = "";
    private String dropColumns = "";
    private String cause = "";

    /** Flink POJO constructor. */
    public SchemaChangeBarrier() {
    }

    /**
     * @param table the target table
     * @param add columns to add, each {@code name TYPE} (e.g. {@code note VARCHAR(256)})
     * @param drop column names to drop
     * @param cause what asked for it, for the log: the position and the DDL, or the row's position and column
     * @param sourcePartition the partition it came from
     */
    public SchemaChangeBarrier(TargetTable table, List<String> add, List<String> drop, String cause,
            int sourcePartition) {
        super(sourcePartition);
        this.database = table.database();
        this.table = table.table();
        this.addColumns = String.join("\n", add);
        this.dropColumns = String.join("\n", drop);
        this.cause = cause;
    }

    /** @return the target table */
    public TargetTable target() {
        return new TargetTable(getDatabase(), getTable());
    }

    /** @return the columns to add, each {@code name TYPE} */
    public List<String> columnsToAdd() {
        return lines(addColumns);
    }

    /** @return the names of the columns to drop */
    public List<String> columnsToDrop() {
        return lines(dropColumns);
    }

    private static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                lines.add(line);
            }
        }
        return lines;
    }

    /** @return the target database */
    public String getDatabase() {
        return database;
    }

    /** @param database the target database */
    public void setDatabase(String database) {
        this.database = database;
    }

    /** @return the target table */
    public String getTable() {
        return table;
    }

    /** @param table the target table */
    public void setTable(String table) {
        this.table = table;
    }

    public String getAddColumns() {
        return addColumns;
    }

    public void setAddColumns(String addColumns) {
        this.addColumns = addColumns;
    }

    public String getDropColumns() {
        return dropColumns;
    }

    public void setDropColumns(String dropColumns) {
        this.dropColumns = dropColumns;
    }

    public String getCause() {
        return cause;
    }

    public void setCause(String cause) {
        this.cause = cause;
    }
}
