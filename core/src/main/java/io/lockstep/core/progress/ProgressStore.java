package io.lockstep.core.progress;

import io.lockstep.core.client.FailureClass;
import io.lockstep.core.client.SqlResult;
import io.lockstep.core.client.StarRocksSqlClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.metrics.LoadMetrics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Reads the progress table through the StarRocks HTTP SQL API ({@link StarRocksSqlClient}): checks that it exists
 * with the expected columns, and reads the rows of one job. Thread-safe (the SQL client is).
 *
 * <p>For a job outside the sink (e.g. {@code lockstep run} choosing Kafka start offsets) use
 * {@link #readCommittedPositions(TransactionClientConfig, ProgressTable, String)}: it reads what is visible without
 * settling earlier runs. That is safe as a start position: a later settle can only make more positions visible, and
 * the sink drops every source transaction at or below the positions it reads after its own settle.
 */
public final class ProgressStore {
    private final StarRocksSqlClient sql;
    private final ProgressTable table;

    /** @param sql the SQL client (the caller closes it) */
    public ProgressStore(StarRocksSqlClient sql, ProgressTable table) {
        this.sql = Objects.requireNonNull(sql, "sql");
        this.table = Objects.requireNonNull(table, "table");
    }

    /** The table. */
    public ProgressTable table() {
        return table;
    }

    /**
     * Checks that the table exists and has the expected columns (the current eight or the legacy seven).
     *
     * @return the table's shape
     * @throws ProgressTableException naming the table and what is wrong, with the CREATE TABLE to run, when the server
     *                                answers that the query cannot run (the table is missing)
     * @throws TransactionException   as the SQL client raised it when the server could not be asked (no reply, or
     *                                5xx after the client's retries: an outage, which a restart may outlast) or refused
     *                                the user or the database ({@link FailureClass#ACCESS_DENIED}): neither says
     *                                anything about the table
     */
    public ProgressTableShape checkTable() throws TransactionException {
        SqlResult probe;
        try {
            probe = sql.select(table.database(), table.probeSql());
        } catch (TransactionException e) {
            FailureClass failure = e.failureClass();
            if (failure == null || failure == FailureClass.ACCESS_DENIED) {
                throw e;
            }
            throw new ProgressTableException("cannot read the progress table " + table.qualifiedName() + " ("
                    + e.getMessage() + "); multi-table exactly-once needs it to exist before the job starts. Create "
                    + "it with:\n" + table.createTableSql(), e);
        }
        return table.checkColumns(probe.columns());
    }

    /**
     * Every row of {@code jobId}: its source partitions' positions, its commit position rows and its runs'
     * registration rows.
     *
     * @param shape the table's shape as {@link #checkTable()} found it (a legacy table has no commit_position)
     * @throws TransactionException     if the SQL API fails (after retries for connection failures)
     * @throws ProgressTableException   if a row has a value of the wrong shape
     */
    public List<ProgressRow> readJob(String jobId, ProgressTableShape shape) throws TransactionException {
        SqlResult result = sql.select(table.database(), table.selectJobSql(jobId, shape));
        List<ProgressRow> rows = new ArrayList<>(result.rows().size());
        for (List<Object> r : result.rows()) {
            try {
                Object commitPosition = shape.hasCommitPositions() ? r.get(7) : null;
                rows.add(new ProgressRow(text(r.get(0)), text(r.get(1)), (int) number(r.get(2)), number(r.get(3)),
                        text(r.get(4)), text(r.get(5)), r.get(6) == null ? null : r.get(6).toString(),
                        commitPosition == null ? null : commitPosition.toString()));
            } catch (RuntimeException e) {
                throw new ProgressTableException("progress table " + table.qualifiedName() + " returned a row of "
                        + "another shape for job " + jobId + ": " + e.getMessage(), e);
            }
        }
        return rows;
    }

    /**
     * The committed positions in {@code rows}: the source partitions' positions (every row whose source starts with
     * {@code #} left out: runs, commit positions) and the commit positions of the {@code #commit:} rows.
     *
     * @param shape the shape of the table the rows were read from
     */
    public static CommittedPositions positionsOf(List<ProgressRow> rows, ProgressTableShape shape) {
        Map<SourcePartition, Long> positions = new HashMap<>();
        Map<SourcePartition, String> commits = new HashMap<>();
        for (ProgressRow row : rows) {
            if (row.isSourcePositionRow()) {
                positions.merge(new SourcePartition(row.source(), row.sourcePartition()), row.position(), Math::max);
            } else if (row.isCommitRow() && row.commitPosition() != null) {
                commits.put(new SourcePartition(row.source().substring(ProgressTable.COMMIT_SOURCE_PREFIX.length()),
                        row.sourcePartition()), row.commitPosition());
            }
        }
        return new CommittedPositions(positions, commits, shape);
    }

    /**
     * Reads the committed positions of {@code jobId} once, without settling (see the class comment for why that is
     * a safe start position).
     *
     * @param config the FE addresses and credentials (as the sink's {@code load-url}, {@code username},
     *               {@code password})
     * @return source → partition → position via {@link CommittedPositions#bySource()}, the commit positions via
     *     {@link CommittedPositions#commits()}, and the table's shape (a legacy table keeps no commit positions:
     *     {@link ProgressTable#addCommitPositionColumnSql()} upgrades it)
     * @throws ProgressTableException if the table is missing or has other columns (the message has the DDL)
     * @throws TransactionException   if the SQL API cannot be read
     */
    public static CommittedPositions readCommittedPositions(TransactionClientConfig config, ProgressTable table,
                                                            String jobId) throws TransactionException {
        LoadMetrics metrics = LoadMetrics.noop();
        try (StarRocksSqlClient sql = new StarRocksSqlClient(config, metrics)) {
            ProgressStore store = new ProgressStore(sql, table);
            ProgressTableShape shape = store.checkTable();
            return positionsOf(store.readJob(jobId, shape), shape);
        }
    }

    private static String text(Object value) {
        if (value == null) {
            throw new IllegalArgumentException("a NOT NULL column is null");
        }
        return value.toString();
    }

    private static long number(Object value) {
        if (value instanceof Number n) {
            return n.longValue();
        }
        if (value instanceof String s) {
            return Long.parseLong(s.trim());
        }
        throw new IllegalArgumentException("expected a number, got " + (value == null ? "null" : value.getClass()
                .getSimpleName()));
    }
}
