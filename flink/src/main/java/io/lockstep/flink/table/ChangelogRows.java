package io.lockstep.flink.table;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import javax.annotation.Nullable;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.Collector;

/**
 * Turns a table sink's changelog into sink rows for one table:
 * <ul>
 *   <li>INSERT and UPDATE_AFTER: the row, an upsert ({@code deleteColumn} = 0 on key tables);</li>
 *   <li>DELETE: the row with {@code deleteColumn} = 1 (StarRocks PRIMARY KEY tables read {@code __op}, StarRocks
 *       docs "Change data through loading"; Doris UNIQUE KEY tables read {@code __DORIS_DELETE_SIGN__}, Doris docs
 *       "Batch Delete");</li>
 *   <li>UPDATE_BEFORE: dropped (the UPDATE_AFTER that follows upserts the key), or loaded as a delete when
 *       {@code sink.ignore.update-before} is false.</li>
 * </ul>
 * Without a primary key the sink accepts only inserts ({@link LockstepDynamicTableSink#getChangelogMode}), so a
 * delete here means the planner broke that contract: it fails naming the table.
 *
 * <p>Stateless apart from its settings; one instance per subtask.
 */
final class ChangelogRows implements FlatMapFunction<RowData, DefaultStarRocksRowData> {
    private static final long serialVersionUID = 1L;

    private final String database;
    private final String table;
    private final RowDataJsonEncoder encoder;
    @Nullable
    private final String deleteColumn;
    private final boolean ignoreUpdateBefore;

    /**
     * @param deleteColumn the delete flag column of a key table ({@code __op}, {@code __DORIS_DELETE_SIGN__}), or
     *                     null for a table without a declared primary key
     */
    ChangelogRows(String database, String table, RowDataJsonEncoder encoder, @Nullable String deleteColumn,
                  boolean ignoreUpdateBefore) {
        this.database = Objects.requireNonNull(database, "database");
        this.table = Objects.requireNonNull(table, "table");
        this.encoder = Objects.requireNonNull(encoder, "encoder");
        this.deleteColumn = deleteColumn;
        this.ignoreUpdateBefore = ignoreUpdateBefore;
    }

    /**
     * @throws IllegalArgumentException naming the table for a retraction into a table without a primary key, or a
     *                                  value JSON cannot carry
     */
    @Override
    public void flatMap(RowData row, Collector<DefaultStarRocksRowData> out) {
        switch (row.getRowKind()) {
            case INSERT, UPDATE_AFTER -> out.collect(sinkRow(row, 0));
            case UPDATE_BEFORE -> {
                if (!ignoreUpdateBefore) {
                    out.collect(sinkRow(row, 1));
                }
            }
            case DELETE -> out.collect(sinkRow(row, 1));
            default -> throw new IllegalStateException("unknown row kind " + row.getRowKind());
        }
    }

    private DefaultStarRocksRowData sinkRow(RowData row, int deleteFlag) {
        if (deleteColumn == null && deleteFlag == 1) {
            throw new IllegalArgumentException("table " + database + "." + table + " received a " + row.getRowKind()
                    + " row but declares no PRIMARY KEY; declare PRIMARY KEY (...) NOT ENFORCED to load a changelog");
        }
        byte[] json = encoder.encode(row, deleteColumn, deleteFlag);
        return new DefaultStarRocksRowData(null, database, table, new String(json, StandardCharsets.UTF_8));
    }
}
