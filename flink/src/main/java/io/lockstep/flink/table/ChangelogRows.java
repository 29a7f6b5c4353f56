package io.lockstep.flink.table;

import io.lockstep.flink.row.LoadRow;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import javax.annotation.Nullable;
import javax.annotation.concurrent.NotThreadSafe;
import org.apache.flink.table.data.RowData;

/**
 * Turns a table sink's changelog into sink rows for one table, so that the table ends equal to the query's result:
 * <ul>
 *   <li>INSERT and UPDATE_AFTER: the row, an upsert ({@code deleteColumn} = 0 on key tables);</li>
 *   <li>DELETE: the row with {@code deleteColumn} = 1 (StarRocks PRIMARY KEY tables read {@code __op}, StarRocks
 *       docs "Change data through loading"; Doris UNIQUE KEY tables read {@code __DORIS_DELETE_SIGN__}, Doris docs
 *       "Batch Delete");</li>
 *   <li>UPDATE_BEFORE: held back. When the next row is the UPDATE_AFTER of the same key (how an aggregate, a rank or
 *       a join sends an update of one row) the pair is folded into that one upsert, so the key is never deleted in
 *       between and both halves land in one commit. Otherwise (the query filtered the UPDATE_AFTER out, e.g.
 *       {@code WHERE cnt = 1} over a count that moved to 2) it becomes a delete of the key, emitted before that next
 *       row or at {@link #release} (the operator calls it when its input pauses, before a checkpoint barrier and at the
 *       end of input). This is the upsert semantics of Flink's own upsert sinks (JDBC, upsert-kafka), which load an
 *       UPDATE_BEFORE the planner still sends as a delete. With {@code sink.ignore.update-before = true} UPDATE_BEFORE
 *       rows are dropped instead (the StarRocks connector's behaviour).</li>
 * </ul>
 * Without a primary key the sink accepts only inserts ({@link LockstepDynamicTableSink#getChangelogMode}), so any
 * other row kind means the planner broke that contract: it fails naming the table.
 *
 * <p>Task thread only: the one pending UPDATE_BEFORE is operator-local and never checkpointed (it is released
 * before every barrier). Serializable for its settings.
 */
@NotThreadSafe
final class ChangelogRows implements Serializable {
    private static final long serialVersionUID = 2L;

    /** Receives the rows in order: the primary key (or "" without one) and the sink row. */
    interface Out {
        void emit(String key, LoadRow row);
    }

    private final String database;
    private final String table;
    private final RowDataJsonEncoder encoder;
    @Nullable
    private final String deleteColumn;
    @Nullable
    private final PrimaryKeySelector keys;
    private final boolean ignoreUpdateBefore;

    /** Key of the held UPDATE_BEFORE, or null when none is held. */
    @Nullable
    private transient String pendingKey;
    /** The held UPDATE_BEFORE already encoded as a delete (so the input's reused row objects can change). */
    @Nullable
    private transient LoadRow pendingDelete;

    /**
     * @param deleteColumn the delete flag column of a key table ({@code __op}, {@code __DORIS_DELETE_SIGN__}), or
     *                     null for a table without a declared primary key
     * @param keys         the primary key of a key table, or null without one
     */
    ChangelogRows(String database, String table, RowDataJsonEncoder encoder, @Nullable String deleteColumn,
                  @Nullable PrimaryKeySelector keys, boolean ignoreUpdateBefore) {
        this.database = Objects.requireNonNull(database, "database");
        this.table = Objects.requireNonNull(table, "table");
        this.encoder = Objects.requireNonNull(encoder, "encoder");
        if ((deleteColumn == null) != (keys == null)) {
            throw new IllegalArgumentException("deleteColumn and keys are given together (a key table) or not at all");
        }
        this.deleteColumn = deleteColumn;
        this.keys = keys;
        this.ignoreUpdateBefore = ignoreUpdateBefore;
    }

    /**
     * Takes the next changelog row and emits what is decided by it: a held UPDATE_BEFORE (as a delete unless this row
     * is its UPDATE_AFTER), then this row's sink row (none for an UPDATE_BEFORE, which is held).
     *
     * @throws IllegalArgumentException naming the table for a change other than INSERT into a table without a primary
     *                                  key, or a value JSON cannot carry
     */
    void add(RowData row, Out out) {
        if (keys == null) {
            if (row.getRowKind() != org.apache.flink.types.RowKind.INSERT) {
                throw new IllegalArgumentException("table " + database + "." + table + " received a "
                        + row.getRowKind() + " row but declares no PRIMARY KEY; declare PRIMARY KEY (...) NOT "
                        + "ENFORCED to load a changelog");
            }
            out.emit("", sinkRow(row, 0));
            return;
        }
        String key = keys.getKey(row);
        switch (row.getRowKind()) {
            case INSERT, UPDATE_AFTER -> {
                if (pendingKey != null && !pendingKey.equals(key)) {
                    release(out);
                }
                // the UPDATE_AFTER of the held UPDATE_BEFORE replaces it: one upsert, no delete in between
                pendingKey = null;
                pendingDelete = null;
                out.emit(key, sinkRow(row, 0));
            }
            case UPDATE_BEFORE -> {
                release(out);
                if (!ignoreUpdateBefore) {
                    pendingKey = key;
                    pendingDelete = sinkRow(row, 1);
                }
            }
            case DELETE -> {
                release(out);
                out.emit(key, sinkRow(row, 1));
            }
            default -> throw new IllegalStateException("unknown row kind " + row.getRowKind());
        }
    }

    /** Emits the held UPDATE_BEFORE, if any, as a delete of its key: no UPDATE_AFTER of that key followed it. */
    void release(Out out) {
        if (pendingKey != null) {
            String key = pendingKey;
            LoadRow delete = pendingDelete;
            pendingKey = null;
            pendingDelete = null;
            out.emit(key, delete);
        }
    }

    /** @return whether an UPDATE_BEFORE is held */
    boolean holdsUpdateBefore() {
        return pendingKey != null;
    }

    private LoadRow sinkRow(RowData row, int deleteFlag) {
        byte[] json = encoder.encode(row, deleteColumn, deleteFlag);
        return new LoadRow(null, database, table, new String(json, StandardCharsets.UTF_8));
    }
}
