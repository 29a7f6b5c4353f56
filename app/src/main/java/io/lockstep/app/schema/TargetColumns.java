package io.lockstep.app.schema;

import io.lockstep.app.route.TargetTable;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The columns of the target tables as one subtask knows them: read once per table through a {@link ColumnReader},
 * then kept until a schema change makes them stale ({@link #forget}) or the subtask changes them itself
 * ({@link #added}, {@link #dropped}). Names are compared in lower case (StarRocks column names are case-insensitive).
 *
 * <p>Not thread safe: owned by the assembler's task thread.
 */
public final class TargetColumns {

    private final ColumnReader reader;
    private final Map<TargetTable, Set<String>> known = new HashMap<>();

    /** @param reader reads a table's columns when they are not known */
    public TargetColumns(ColumnReader reader) {
        this.reader = Objects.requireNonNull(reader, "reader");
    }

    /**
     * @param table a target table
     * @return its columns, lower case (read on the first call and after {@link #forget})
     * @throws IllegalStateException naming the table and why its columns could not be read
     */
    public Set<String> of(TargetTable table) {
        Set<String> columns = known.get(table);
        if (columns == null) {
            try {
                columns = new LinkedHashSet<>(reader.columns(table.database(), table.table()));
            } catch (Exception e) {
                throw new IllegalStateException("cannot read the columns of target table " + table.database() + "."
                        + table.table() + ": " + e.getMessage(), e);
            }
            known.put(table, columns);
        }
        return columns;
    }

    /** Makes the next {@link #of} read {@code table}'s columns again (after a schema change). */
    public void forget(TargetTable table) {
        known.remove(table);
    }

    /** Records columns this subtask has the target add (they arrive ahead of the rows that carry them). */
    public void added(TargetTable table, Collection<String> columns) {
        Set<String> set = of(table);
        columns.forEach(c -> set.add(c.toLowerCase(Locale.ROOT)));
    }

    /** Records columns this subtask has the target drop. */
    public void dropped(TargetTable table, Collection<String> columns) {
        Set<String> set = of(table);
        columns.forEach(c -> set.remove(c.toLowerCase(Locale.ROOT)));
    }
}
