package io.lockstep.app.assemble;

import io.lockstep.app.create.CreateTableStatement;
import io.lockstep.app.create.SourceCatalogException;
import io.lockstep.app.create.SourceTable;
import io.lockstep.app.create.SourceTableLookup;
import io.lockstep.app.create.TableCreation;
import io.lockstep.app.create.TableCreationBarrier;
import io.lockstep.app.create.TableRefusedException;
import io.lockstep.app.event.SchemaChangeException;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.route.TargetTable;
import io.lockstep.app.schema.TargetColumn;
import io.lockstep.app.schema.TargetColumns;
import io.lockstep.flink.row.SinkInput;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The assembler's part of {@code lockstep run --create-tables} while the job runs
 * (docs/table-creation.md#tables-created-mid-stream): a row whose target table does not exist has the table created
 * ahead of the row's source transaction. The check finds the source table's shape ({@link SourceTableLookup}: the
 * message's schema, else the source catalog), builds its {@link CreateTableStatement} (a refused column or key stops
 * the job here, in one line, before anything of the transaction is sent), sends a {@link TableCreationBarrier} down the
 * partition's stream and takes the statement's columns as the target's ({@link TargetColumns#created}), so the rows
 * are checked against them. The sink commits what came before the barrier, creates the table, then loads the rest.
 *
 * <p>Each source partition's stream carries its own barrier before its first row of a table this subtask created, as
 * the partitions may go to different sink subtasks (a second creation finds the table there and goes on). After a
 * restart the table exists and nothing is sent again.
 *
 * <p>Owned by a {@link TransactionAssembler} (created in its {@code open}) and used on its task thread only; not
 * thread safe. Logs under the assembler's logger.
 */
final class TableCreationCheck {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionAssembler.class);

    private final TableCreation creation;
    private final TargetColumns targetColumns;
    private final SourceTableLookup lookup;
    /** Tables this subtask had created: the shape sent, and the source partitions whose stream carried a barrier. */
    private final Map<TargetTable, Created> created = new HashMap<>();

    /**
     * @param creation the selection, DDL options and source catalog
     * @param targetColumns the target tables' columns as this subtask knows them (a created table's are added)
     */
    TableCreationCheck(TableCreation creation, TargetColumns targetColumns) {
        this.creation = Objects.requireNonNull(creation, "creation");
        this.targetColumns = Objects.requireNonNull(targetColumns, "targetColumns");
        this.lookup = new SourceTableLookup(creation);
    }

    /**
     * {@code event}'s target table does not exist: sends the barrier that creates it ahead of the event's transaction.
     *
     * @param partition the source partition, carried by the barrier
     * @param out where the barrier goes
     * @return the created table's columns by lower-case name, as {@link TargetColumns} now knows them
     * @throws SchemaChangeException naming the position and the table when it cannot be created: its shape is not
     *     known (no schema in the message, no {@code --source-jdbc-url}), or a column or the key is refused
     * @throws IllegalStateException when the source catalog cannot be read (the job restarts)
     */
    Map<String, TargetColumn> create(SourceEvent event, TargetTable target, int partition, Collector<SinkInput> out) {
        SourceTable source = find(event, target);
        CreateTableStatement statement;
        try {
            statement = CreateTableStatement.of(source, target, creation.options());
        } catch (TableRefusedException e) {
            throw new SchemaChangeException(event.describePosition() + ": target table " + target + " of source table "
                    + event.dataCollection() + " does not exist and cannot be created: " + e.getMessage()
                    + "; the transactions before it are committed");
        }
        List<TargetColumn> columns = new ArrayList<>();
        for (CreateTableStatement.Column column : statement.columns()) {
            columns.add(new TargetColumn(column.name(), column.type(), column.nullable()));
        }
        Created table = new Created(source, event.describePosition() + ": first row of source table "
                + event.dataCollection());
        created.put(target, table);
        send(target, table, partition, out);
        targetColumns.created(target, columns);
        return targetColumns.of(target);
    }

    /**
     * {@code target} exists or is being created: when this subtask had it created on another source partition's
     * stream only, this partition's stream gets its barrier too, so that its rows never reach a sink subtask before
     * the table exists.
     */
    void announce(TargetTable target, int partition, Collector<SinkInput> out) {
        Created table = created.get(target);
        if (table != null && !table.partitions.contains(partition)) {
            send(target, table, partition, out);
        }
    }

    /**
     * @return whether this subtask had {@code target} created: its columns are the ones {@link TargetColumns} holds
     *     (a schema change of it is compared with them, not with the target, which may not show the table yet)
     */
    boolean createdHere(TargetTable target) {
        return created.containsKey(target);
    }

    private void send(TargetTable target, Created table, int partition, Collector<SinkInput> out) {
        LOG.info("Target table {} does not exist: creating it from source table {} ahead of source partition {}'s "
                + "next transaction ({})", target, table.source.qualifiedName(), partition, table.cause);
        out.collect(new TableCreationBarrier(target, table.source, table.cause, partition));
        table.partitions.add(partition);
    }

    private SourceTable find(SourceEvent event, TargetTable target) {
        String what = event.describePosition() + ": target table " + target + " of source table "
                + event.dataCollection() + " does not exist";
        SourceTable source;
        try {
            source = lookup.find(event.getSourceDatabase(), event.getSourceTable(), event.getRawKey(),
                    event.getRawValue());
        } catch (IllegalArgumentException e) {
            throw new SchemaChangeException(what + " and its shape cannot be read: " + e.getMessage());
        } catch (SourceCatalogException e) { // the source may be out for a while: the job restarts and asks again
            throw new IllegalStateException(what + " and the source catalog cannot be read: " + e.getMessage(), e);
        }
        if (source == null) {
            throw new SchemaChangeException(what + " and --create-tables cannot create it: "
                    + (lookup.hasCatalog() ? "the source catalog (--source-jdbc-url) does not show it"
                    : "its messages carry no schema (the JSON converter's schemas.enable=false) and no "
                            + "--source-jdbc-url is given")
                    + "; give --source-jdbc-url, or create the table yourself; the transactions before it are "
                    + "committed");
        }
        return source;
    }

    /** A table this subtask had created: its shape, what asked for it, the partitions that carried its barrier. */
    private static final class Created {
        final SourceTable source;
        final String cause;
        final Set<Integer> partitions = new HashSet<>();

        Created(SourceTable source, String cause) {
            this.source = source;
            this.cause = cause;
        }
    }
}
