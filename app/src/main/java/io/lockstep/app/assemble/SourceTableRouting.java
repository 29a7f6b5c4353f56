package io.lockstep.app.assemble;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.TargetTable;
import io.lockstep.app.route.UnknownTableException;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.flink.row.LoadRow;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.metrics.Counter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes the row events of an assembler to their target tables ({@link TableRouter}) and builds their sink rows
 * ({@link LoadRow}: the row, and before it the delete of the previous key when the update changed
 * the key). A table that {@code --unknown-table skip} leaves out, or whose target table does not exist, has its rows
 * skipped, counted ({@link TransactionAssembler#SKIPPED_ROWS_METRIC}) and reported in one INFO line per table;
 * with {@code fail} it is an {@link UnknownTableException} naming the event's position (docs/reliability.md).
 *
 * <p>Owned by a {@link TransactionAssembler} (created in its {@code open}) and used on its task thread only; not
 * thread safe. Logs under the assembler's logger.
 */
final class SourceTableRouting {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionAssembler.class);

    private final TableRouter router;
    private final Counter skippedRows;
    /** Tables already reported as skipped, so the INFO line appears once per table and subtask. */
    private final Set<String> warnedSkippedTables = new HashSet<>();

    /**
     * @param router maps source tables to target tables
     * @param skippedRows counts the row events skipped
     */
    SourceTableRouting(TableRouter router, Counter skippedRows) {
        this.router = Objects.requireNonNull(router, "router");
        this.skippedRows = Objects.requireNonNull(skippedRows, "skippedRows");
    }

    /**
     * @return the target table of {@code event}'s source table, or {@code null} when its rows are skipped
     * @throws UnknownTableException with {@code --unknown-table fail}, naming the event's position
     */
    TargetTable route(SourceEvent event) {
        TargetTable target;
        try {
            target = router.route(event.getSourceDatabase(), event.getSourceTable());
        } catch (UnknownTableException e) {
            throw new UnknownTableException(event.describePosition() + ": " + e.getMessage());
        }
        if (target == null) {
            skippedRows.inc();
            if (warnedSkippedTables.add(event.dataCollection())) {
                LOG.info("Skipping rows of source table {} ({}), first at {}", event.dataCollection(),
                        router.unknownReason(event.getSourceDatabase(), event.getSourceTable()),
                        event.describePosition());
            }
        }
        return target;
    }

    /**
     * The target table's columns say it does not exist (dropped after the start, say): its rows follow
     * {@code --unknown-table}, never loaded unchecked.
     *
     * @return no rows ({@code skip}, with one INFO line per table and subtask)
     * @throws UnknownTableException with {@code fail}
     */
    List<LoadRow> missingTarget(SourceEvent event, TargetTable target) {
        String reason = "target table '" + target + "' of source table '" + event.dataCollection()
                + "' does not exist";
        if (router.unknownTableMode() != UnknownTableMode.SKIP) {
            throw new UnknownTableException(event.describePosition() + ": " + reason
                    + "; create it, or skip unknown tables (--unknown-table skip)");
        }
        skippedRows.inc();
        if (warnedSkippedTables.add(event.dataCollection())) {
            LOG.info("Skipping rows of source table {} ({}), first at {}", event.dataCollection(), reason,
                    event.describePosition());
        }
        return List.of();
    }

    /**
     * @param partition the source partition the rows carry
     * @return the sink rows of {@code event} for {@code target}: the previous key's delete first, if any
     */
    static List<LoadRow> sinkRows(SourceEvent event, TargetTable target, int partition) {
        List<LoadRow> rows = new ArrayList<>(2);
        if (event.getPreviousKeyDeleteRow() != null) {
            rows.add(sinkRow(target, event.getPreviousKeyDeleteRow(), partition));
        }
        rows.add(sinkRow(target, event.getRow(), partition));
        return rows;
    }

    /** @return the rows' JSON size in UTF-8 bytes */
    static long sizeBytes(List<LoadRow> rows) {
        long bytes = 0;
        for (LoadRow row : rows) {
            bytes += row.getRow().getBytes(StandardCharsets.UTF_8).length;
        }
        return bytes;
    }

    private static LoadRow sinkRow(TargetTable target, String row, int partition) {
        LoadRow data = new LoadRow(null, target.database(), target.table(), row);
        data.setSourcePartition(partition);
        return data;
    }
}
