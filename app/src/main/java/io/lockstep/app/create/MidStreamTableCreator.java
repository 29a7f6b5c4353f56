package io.lockstep.app.create;

import java.io.Serializable;
import java.sql.SQLException;
import java.util.Objects;

/**
 * The sink's side of a table created while the job runs (docs/table-creation.md#tables-created-mid-stream): creates
 * the table a {@link TableCreationBarrier} names, with the DDL options of {@code --create-tables}, through the
 * target's MySQL-protocol port ({@link TableCreator}). A table that is there already is fine (a replay after a
 * restart, or another sink subtask created it first); one with other columns is left as it is, with one WARN line.
 *
 * <p>Serializable (it travels inside the sink); called on the sink's task thread. Never logs the password.
 */
public final class MidStreamTableCreator implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Longest wait for a created table to show in {@code SHOW TABLES}: 10 minutes. */
    public static final long VISIBLE_TIMEOUT_MS = 600_000L;

    private final TableCreator creator;
    private final TableCreationOptions options;

    /**
     * @param creator creates tables through the target's MySQL-protocol port
     * @param options buckets, properties, column type overrides and key columns of a created table
     */
    public MidStreamTableCreator(TableCreator creator, TableCreationOptions options) {
        this.creator = Objects.requireNonNull(creator, "creator");
        this.options = Objects.requireNonNull(options, "options");
    }

    /**
     * @param barrier the table to create and the source table it holds
     * @return what was found or done
     * @throws TableRefusedException when the source table cannot be created exactly (the assembler checked it
     *     already, so only a mark of another version gets here)
     * @throws SQLException naming the statement the target refused, or the table not showing in time
     * @throws InterruptedException if interrupted while waiting for the table to show
     */
    public TableCreator.Outcome create(TableCreationBarrier barrier) throws SQLException, InterruptedException {
        return creator.ensureTable(barrier.target(), barrier.sourceTable(), options);
    }
}
