package io.lockstep.app.assemble;

import io.lockstep.app.event.SchemaChangeException;
import io.lockstep.app.event.SchemaChangeMode;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.TargetTable;
import io.lockstep.app.route.UnknownTableException;
import io.lockstep.app.schema.ColumnTypes;
import io.lockstep.app.schema.SchemaChangeBarrier;
import io.lockstep.app.schema.TargetColumn;
import io.lockstep.app.schema.TargetColumns;
import io.lockstep.flink.row.SinkInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The schema changes an assembler meets between source transactions (docs/schema-changes.md): a DDL event is
 * compared with its target table's columns and, as {@link AssemblerOptions#schemaChangeMode()} says, stops the input,
 * is ignored with a WARN, or becomes a {@link SchemaChangeBarrier} sent ahead of what follows (which also carries
 * the new columns of rows, {@link TargetColumnCheck}).
 *
 * <p>Owned by a {@link TransactionAssembler} (created in its {@code open}) and used on its task thread only; not
 * thread safe. Logs under the assembler's logger.
 */
final class SchemaChanges {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionAssembler.class);

    private final TableRouter router;
    private final AssemblerOptions options;
    /** The target tables' columns as this subtask knows them, or {@code null}: rows are not checked. */
    private final TargetColumns targetColumns;
    /**
     * The tables this subtask had created, or {@code null}: their columns are known here, and the target may not show
     * them yet (the sink creates them when it reaches the barrier).
     */
    private final TableCreationCheck tableCreation;

    /**
     * @param router maps source tables to target tables
     * @param options the schema-change mode
     * @param targetColumns the target tables' columns, or {@code null} when rows are not checked
     * @param tableCreation the tables this subtask had created ({@code --create-tables}), or {@code null}
     */
    SchemaChanges(TableRouter router, AssemblerOptions options, TargetColumns targetColumns,
            TableCreationCheck tableCreation) {
        this.tableCreation = tableCreation;
        this.router = Objects.requireNonNull(router, "router");
        this.options = Objects.requireNonNull(options, "options");
        this.targetColumns = targetColumns;
    }

    /**
     * A schema change between source transactions. A DDL event of a table whose rows are never loaded
     * ({@link TableRouter#notLoadedReason}) is ignored with one WARN in every mode. One whose rows would stop the job
     * as unknown (the target table does not exist, {@code --unknown-table fail}) stops it the same way, saying so,
     * except with {@link SchemaChangeMode#IGNORE} (its rows stop it then). Otherwise its target table's
     * columns are compared with the table's columns after the change (when the event lists them). With
     * {@link SchemaChangeMode#FAIL} the stop (the transactions before it load, the job fails naming the table and the
     * DDL), unless the target already has the change; with {@link SchemaChangeMode#IGNORE} a WARN; with
     * {@link SchemaChangeMode#APPLY} a {@link SchemaChangeBarrier} carrying the columns to add and drop.
     *
     * @param partition the source partition, carried by a barrier
     * @param out where a barrier goes
     * @return the failure to stop the input at, or {@code null} to go on
     */
    RuntimeException onSchemaChange(SourceEvent event, int partition, Collector<SinkInput> out) {
        String notLoaded = event.getSourceTable() == null || "?".equals(event.getSourceTable()) ? null
                : router.notLoadedReason(event.getSourceDatabase(), event.getSourceTable());
        if (notLoaded != null) {
            LOG.warn("Ignoring a schema change of table {} at {}: its rows are not loaded ({})",
                    event.dataCollection(), event.describePosition(), notLoaded);
            return null;
        }
        UnknownTableException missing = options.schemaChangeMode() == SchemaChangeMode.IGNORE ? null
                : missingTargetOfSchemaChange(event);
        if (missing != null) {
            return missing;
        }
        TargetTable target = targetOfSchemaChange(event);
        SchemaChangeBarrier change = target == null ? null : barrierFor(event, target, partition);
        if (change == null && target != null && options.tableCreation() != null) {
            LOG.info("Schema change of table {} at {}: target table {} does not exist; --create-tables creates it "
                    + "at the table's first row", event.dataCollection(), event.describePosition(), target);
            return null;
        }
        switch (options.schemaChangeMode()) {
            case FAIL -> {
                if (change != null && change.columnsToAdd().isEmpty() && change.columnsToDrop().isEmpty()) {
                    LOG.info("Schema change of table {} at {}: target table {}.{} already has it; going on ({})",
                            event.dataCollection(), event.describePosition(), target.database(), target.table(),
                            event.getRow());
                    return null;
                }
                return SchemaChangeException.of(event);
            }
            case IGNORE -> {
                LOG.warn("Ignoring a schema change of table {} at {}: {}", event.dataCollection(),
                        event.describePosition(), event.getRow());
                if (target != null && targetColumns != null
                        && (tableCreation == null || !tableCreation.createdHere(target))) {
                    targetColumns.forget(target); // a table created here keeps its columns: rows leave new ones out
                }
                return null;
            }
            case APPLY -> {
                if (change == null) {
                    return SchemaChangeException.notApplicable(event);
                }
                if (change.columnsToAdd().isEmpty() && change.columnsToDrop().isEmpty()) {
                    LOG.info("Schema change of table {} at {}: target table {}.{} already has it ({})",
                            event.dataCollection(), event.describePosition(), target.database(), target.table(),
                            event.getRow());
                    return null;
                }
                sendBarrier(change, target, out);
                return null;
            }
            default -> throw new IllegalStateException("unknown mode " + options.schemaChangeMode());
        }
    }

    /** Sends {@code barrier} ahead of what follows and counts its columns as the target's. */
    void sendBarrier(SchemaChangeBarrier barrier, TargetTable target, Collector<SinkInput> out) {
        LOG.info("Schema change of target table {}.{}: add {}, drop {} ({})", target.database(), target.table(),
                barrier.columnsToAdd(), barrier.columnsToDrop(), barrier.getCause());
        out.collect(barrier);
        targetColumns.added(target, barrier.columnsToAdd());
        targetColumns.dropped(target, barrier.columnsToDrop());
    }

    /**
     * A DDL event of a table whose rows would stop the job as unknown ({@code --unknown-table fail}, the target table
     * does not exist): neither applying nor changing the target by hand can help, so the stop says what a row of the
     * table would ({@link TableRouter#route}), never dead-lettered (the DDL is no row).
     *
     * @return the stop naming the position, the tables and the choices, or {@code null} when the table routes
     */
    private UnknownTableException missingTargetOfSchemaChange(SourceEvent event) {
        if (event.getSourceTable() == null || "?".equals(event.getSourceTable())) {
            return null;
        }
        try {
            router.route(event.getSourceDatabase(), event.getSourceTable());
            return null;
        } catch (UnknownTableException e) {
            return new UnknownTableException(event.describePosition() + ": schema change of table '"
                    + event.dataCollection() + "': " + e.getMessage());
        }
    }

    /** @return the target of a DDL event's table when rows are checked and the event lists the columns, else null */
    private TargetTable targetOfSchemaChange(SourceEvent event) {
        if (targetColumns == null || event.getSchemaColumns() == null || event.getSourceTable() == null
                || "?".equals(event.getSourceTable())) {
            return null;
        }
        try {
            return router.route(event.getSourceDatabase(), event.getSourceTable());
        } catch (UnknownTableException e) {
            return null;
        }
    }

    /**
     * @return the columns {@code target} must gain and lose to match the table after {@code event}; {@code null} if
     *     the target's columns cannot be read (the target table does not exist, say)
     */
    private SchemaChangeBarrier barrierFor(SourceEvent event, TargetTable target, int partition) {
        if (tableCreation == null || !tableCreation.createdHere(target)) {
            targetColumns.forget(target); // the DDL may have been applied to the target by hand meanwhile
        }
        Map<String, TargetColumn> columns = targetColumns.of(target);
        if (columns == null) {
            return null;
        }
        Set<String> known = columns.keySet();
        List<String> add = new ArrayList<>();
        for (String line : event.getSchemaColumns().split("\n")) {
            String[] column = line.split("\t", 2);
            if (!column[0].isEmpty() && !known.contains(column[0].toLowerCase(Locale.ROOT))) {
                add.add(column[0] + " " + ColumnTypes.starRocksType(column.length > 1 ? column[1] : ""));
            }
        }
        List<String> drop = new ArrayList<>();
        if (event.getDroppedColumns() != null) {
            for (String column : event.getDroppedColumns().split("\n")) {
                if (!column.isEmpty() && known.contains(column.toLowerCase(Locale.ROOT))) {
                    drop.add(column);
                }
            }
        }
        return new SchemaChangeBarrier(target, add, drop, event.describePosition() + ": " + event.getRow(),
                partition);
    }
}
