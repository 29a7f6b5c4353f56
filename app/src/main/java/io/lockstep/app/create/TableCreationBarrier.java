package io.lockstep.app.create;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.app.route.TargetTable;
import io.lockstep.flink.row.ControlMark;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * Not a row: the mark an assembler sends down its partition's stream with {@code lockstep run --create-tables} when a
 * row's target table does not exist (docs/table-creation.md#tables-created-mid-stream). It goes ahead of the source
 * transaction holding that row, between two source transactions of its partition; the job's sink
 * ({@code io.lockstep.app.job.FailFastSink}) commits everything buffered before it, creates the table (an existing
 * table of the same columns is fine: a replay after a restart), then the rows after it go on.
 *
 * <p>A {@link ControlMark} (a Flink POJO of strings), so it travels on the rows' channel in order with them: the
 * source table's shape crosses as JSON text ({@link #sourceTable()} reads it back).
 */
public class TableCreationBarrier extends ControlMark {

    private static final ObjectMapper JSON = new ObjectMapper();

    private String database;
    private String table;
    private String sourceTableJson;
    private String cause = "";

    /** Flink POJO constructor. */
    public TableCreationBarrier() {
    }

    /**
     * @param target the target table to create
     * @param source the source table's shape, its columns and key
     * @param cause what asked for it, for the log: the position and source table of the first row
     * @param sourcePartition the partition it came from
     */
    public TableCreationBarrier(TargetTable target, SourceTable source, String cause, int sourcePartition) {
        super(sourcePartition);
        this.database = target.database();
        this.table = target.table();
        this.cause = Objects.requireNonNull(cause, "cause");
        try {
            this.sourceTableJson = JSON.writeValueAsString(Objects.requireNonNull(source, "source"));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot write the shape of source table " + source.qualifiedName(), e);
        }
    }

    /** @return the target table to create */
    public TargetTable target() {
        return new TargetTable(database, table);
    }

    /**
     * @return the source table's shape as the assembler found it
     * @throws UncheckedIOException when the JSON text is not a source table (a mark of another version)
     */
    public SourceTable sourceTable() {
        try {
            return JSON.readValue(sourceTableJson, SourceTable.class);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("the table creation mark of " + database + "." + table
                    + " does not hold a source table", e);
        }
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

    /** @return the source table's shape as JSON ({@link SourceTable} with its {@link SourceColumn}s) */
    public String getSourceTableJson() {
        return sourceTableJson;
    }

    /** @param sourceTableJson the source table's shape as JSON */
    public void setSourceTableJson(String sourceTableJson) {
        this.sourceTableJson = sourceTableJson;
    }

    /** @return what asked for the table: the position and source table of its first row */
    public String getCause() {
        return cause;
    }

    /** @param cause what asked for the table */
    public void setCause(String cause) {
        this.cause = cause;
    }
}
