package io.lockstep.app.assemble;

import io.lockstep.app.event.SchemaChangeException;
import io.lockstep.app.event.SchemaChangeMode;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.route.TargetTable;
import io.lockstep.app.schema.ColumnTypes;
import io.lockstep.app.schema.RowColumns;
import io.lockstep.app.schema.SchemaChangeBarrier;
import io.lockstep.app.schema.TargetColumn;
import io.lockstep.app.schema.TargetColumns;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.SinkInput;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The assembler's check of sink rows against their target table's columns (docs/schema-changes.md), before the rows
 * are buffered: a column the target lacks is a schema change handled as {@link AssemblerOptions#schemaChangeMode()}
 * says (stop before its transaction, leave the column out with one WARN per column, or send a
 * {@link SchemaChangeBarrier} that adds it ahead of the transaction, {@link SchemaChanges#sendBarrier}); then each
 * value is checked against its column's type ({@link ValueCheck}). A target table that does not exist follows
 * {@code --unknown-table} ({@link SourceTableRouting#missingTarget}), or with {@code --create-tables} is created ahead
 * of the row's transaction ({@link TableCreationCheck}). Without a column reader nothing is checked.
 *
 * <p>Owned by a {@link TransactionAssembler} (created in its {@code open}) and used on its task thread only; not
 * thread safe. Logs under the assembler's logger.
 */
final class TargetColumnCheck {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionAssembler.class);

    private final AssemblerOptions options;
    /** The target tables' columns as this subtask knows them, or {@code null}: rows are not checked. */
    private final TargetColumns targetColumns;
    private final SourceTableRouting routing;
    private final SchemaChanges schemaChanges;
    /** Creates a missing target table ({@code --create-tables}), or {@code null}: it follows --unknown-table. */
    private final TableCreationCheck tableCreation;
    /** {@code db.table.column} already reported as left out, so the WARN appears once. */
    private final Set<String> warnedLeftOutColumns = new HashSet<>();

    /**
     * @param options the schema-change mode
     * @param targetColumns the target tables' columns, or {@code null} to load rows unchecked
     * @param routing where a missing target table's rows go
     * @param schemaChanges sends the barriers of new columns
     * @param tableCreation creates a missing target table ahead of the row's transaction, or {@code null}
     */
    TargetColumnCheck(AssemblerOptions options, TargetColumns targetColumns, SourceTableRouting routing,
            SchemaChanges schemaChanges, TableCreationCheck tableCreation) {
        this.options = Objects.requireNonNull(options, "options");
        this.targetColumns = targetColumns;
        this.routing = Objects.requireNonNull(routing, "routing");
        this.schemaChanges = Objects.requireNonNull(schemaChanges, "schemaChanges");
        this.tableCreation = tableCreation;
    }

    /**
     * Checks {@code rows} of {@code event} against {@code target}'s columns (nothing to do without a reader).
     *
     * @param partition the source partition, carried by a barrier
     * @param out where a barrier goes
     * @return the rows to load: as they were, or without the columns the target lacks ({@code ignore}), or none
     *     (the target table does not exist, {@code --unknown-table skip}, and it is not created)
     * @throws SchemaChangeException with {@link SchemaChangeMode#FAIL}, naming the position, the tables and the
     *     columns; nothing has changed then
     * @throws BadValueException naming the first value that does not fit its column
     */
    List<LoadRow> checked(SourceEvent event, TargetTable target, List<LoadRow> rows,
            int partition, Collector<SinkInput> out) {
        if (targetColumns == null) {
            return rows;
        }
        Map<String, TargetColumn> columns = targetColumns.of(target);
        if (columns == null && tableCreation != null) {
            columns = tableCreation.create(event, target, partition, out);
        } else if (columns == null) {
            return routing.missingTarget(event, target);
        } else if (tableCreation != null) {
            tableCreation.announce(target, partition, out);
        }
        Set<String> known = columns.keySet();
        Map<String, String> unknown = new LinkedHashMap<>(); // column -> a row that has it
        for (LoadRow row : rows) {
            for (String column : RowColumns.unknown(row.getRow(), known)) {
                unknown.putIfAbsent(column, row.getRow());
            }
        }
        if (unknown.isEmpty()) {
            return ValueCheck.checked(event, target, rows, columns);
        }
        switch (options.schemaChangeMode()) {
            case FAIL -> throw SchemaChangeException.unknownColumns(event, target, unknown.keySet());
            case IGNORE -> {
                for (String column : unknown.keySet()) {
                    if (warnedLeftOutColumns.add(target.database() + "." + target.table() + "." + column)) {
                        LOG.warn("Target table {}.{} has no column '{}' (source table {}, first at {}); loading "
                                + "without it (--schema-changes ignore)", target.database(), target.table(), column,
                                event.dataCollection(), event.describePosition());
                    }
                }
                for (LoadRow row : rows) {
                    row.setRow(RowColumns.without(row.getRow(), unknown.keySet()));
                }
            }
            case APPLY -> {
                List<String> add = new ArrayList<>();
                unknown.forEach((column, row) -> add.add(column + " "
                        + ColumnTypes.inferred(RowColumns.value(row, column))));
                schemaChanges.sendBarrier(new SchemaChangeBarrier(target, add, List.of(), event.describePosition()
                        + ": row of source table " + event.dataCollection() + " with new column(s) "
                        + unknown.keySet(), partition), target, out);
            }
            default -> throw new IllegalStateException("unknown mode " + options.schemaChangeMode());
        }
        return ValueCheck.checked(event, target, rows, targetColumns.of(target));
    }
}
