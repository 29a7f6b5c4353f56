package io.lockstep.app.schema;

import io.lockstep.app.route.TargetTable;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The columns of the target tables as one subtask knows them: read once per table through a {@link ColumnReader},
 * then kept until a schema change makes them stale ({@link #forget}) or the subtask changes them itself
 * ({@link #added}, {@link #dropped}). Names are compared in lower case (StarRocks and Doris column names are
 * case-insensitive).
 *
 * <p>The check never switches itself off: a table whose columns cannot be read is not remembered as unreadable
 * (docs/reliability.md). An outage fails with {@link TargetColumnsUnavailableException} (the job restarts within its
 * restart strategy and reads again), refused credentials with {@link TargetColumnsRefusedException} (the job fails
 * once), and a missing table is answered with {@code null}, for the caller to follow {@code --unknown-table}; the
 * answer is kept for {@link #MISSING_RECHECK_MS}, so that rows of a missing table do not each ask the target, and a
 * table created meanwhile is found within that time.
 *
 * <p>Not thread safe: owned by the assembler's task thread.
 */
public final class TargetColumns {

    /** How long, in ms, a table found missing is taken as missing before its columns are read again. */
    public static final long MISSING_RECHECK_MS = 10_000;

    private final ColumnReader reader;
    private final LongSupplier clockMs;
    private final Map<TargetTable, Map<String, TargetColumn>> known = new HashMap<>();
    /** Tables found missing, with the time (ms by {@link #clockMs}) they were found so. */
    private final Map<TargetTable, Long> missingSinceMs = new HashMap<>();

    /** @param reader reads a table's columns when they are not known */
    public TargetColumns(ColumnReader reader) {
        this(reader, System::currentTimeMillis);
    }

    /**
     * @param reader reads a table's columns when they are not known
     * @param clockMs the time in ms, for {@link #MISSING_RECHECK_MS}
     */
    public TargetColumns(ColumnReader reader, LongSupplier clockMs) {
        this.reader = Objects.requireNonNull(reader, "reader");
        this.clockMs = Objects.requireNonNull(clockMs, "clockMs");
    }

    /**
     * @param table a target table
     * @return its columns by lower-case name, in table order (read on the first call and after {@link #forget});
     *     {@code null} when the table does not exist
     * @throws TargetColumnsUnavailableException when the target is out (or answers in a way not understood)
     * @throws TargetColumnsRefusedException when the target refuses the credentials or the privilege
     */
    public Map<String, TargetColumn> of(TargetTable table) {
        Map<String, TargetColumn> columns = known.get(table);
        if (columns != null) {
            return columns;
        }
        Long missingSince = missingSinceMs.get(table);
        if (missingSince != null && clockMs.getAsLong() - missingSince < MISSING_RECHECK_MS) {
            return null;
        }
        missingSinceMs.remove(table);
        try {
            columns = new LinkedHashMap<>();
            for (TargetColumn column : reader.columns(table.database(), table.table())) {
                columns.put(column.name(), column);
            }
        } catch (ColumnReadException e) {
            switch (e.kind()) {
                case MISSING_TABLE -> {
                    missingSinceMs.put(table, clockMs.getAsLong());
                    return null;
                }
                case ACCESS_DENIED -> throw new TargetColumnsRefusedException(e);
                default -> throw new TargetColumnsUnavailableException(e);
            }
        } catch (Exception e) {
            throw new TargetColumnsUnavailableException(new ColumnReadException(ColumnReadException.Kind.OUTAGE,
                    "Cannot read the columns of target table " + table + ": " + e.getMessage(), e));
        }
        known.put(table, columns);
        return columns;
    }

    /** Makes the next {@link #of} read {@code table}'s columns again (after a schema change). */
    public void forget(TargetTable table) {
        known.remove(table);
        missingSinceMs.remove(table);
    }

    /**
     * Records a table this subtask has the target create ({@code --create-tables}): it is known with these columns
     * from now on, without asking the target (the creation arrives ahead of the rows that need it).
     *
     * @param columns the created table's columns, in table order
     */
    public void created(TargetTable table, Collection<TargetColumn> columns) {
        missingSinceMs.remove(table);
        Map<String, TargetColumn> map = new LinkedHashMap<>();
        columns.forEach(column -> map.put(column.name(), column));
        known.put(table, map);
    }

    /**
     * Records columns this subtask has the target add (they arrive ahead of the rows that carry them).
     *
     * @param columns each {@code name TYPE}, as a {@link SchemaChangeBarrier} adds them
     */
    public void added(TargetTable table, Collection<String> columns) {
        Map<String, TargetColumn> map = of(table);
        if (map != null) {
            for (String column : columns) {
                String[] nameAndType = column.split(" ", 2);
                TargetColumn added = new TargetColumn(nameAndType[0], nameAndType.length > 1 ? nameAndType[1] : null,
                        true);
                map.put(added.name(), added);
            }
        }
    }

    /** Records columns this subtask has the target drop. */
    public void dropped(TargetTable table, Collection<String> columns) {
        Map<String, TargetColumn> map = of(table);
        if (map != null) {
            columns.forEach(c -> map.remove(TargetColumn.named(c).name()));
        }
    }
}
