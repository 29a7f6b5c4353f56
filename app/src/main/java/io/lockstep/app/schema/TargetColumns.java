package io.lockstep.app.schema;

import io.lockstep.app.route.TargetTable;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The columns of the target tables as one subtask knows them: read once per table through a {@link ColumnReader},
 * then kept until a schema change makes them stale ({@link #forget}) or the subtask changes them itself
 * ({@link #added}, {@link #dropped}). Names are compared in lower case (StarRocks column names are case-insensitive).
 *
 * <p>Not thread safe: owned by the assembler's task thread.
 */
public final class TargetColumns {

    private static final Logger LOG = LoggerFactory.getLogger(TargetColumns.class);

    private final ColumnReader reader;
    private final Map<TargetTable, Set<String>> known = new HashMap<>();
    private final Set<TargetTable> unreadable = new HashSet<>();

    /** @param reader reads a table's columns when they are not known */
    public TargetColumns(ColumnReader reader) {
        this.reader = Objects.requireNonNull(reader, "reader");
    }

    /**
     * @param table a target table
     * @return its columns, lower case (read on the first call and after {@link #forget}); {@code null} when they
     *     cannot be read (the table is missing, the user may not SELECT it, the server is down): then one WARN, and
     *     the table stays unchecked until {@link #forget}, since its loads meet the same problem and report it
     *     (a missing table, a refused password) better than a column check could
     */
    public Set<String> of(TargetTable table) {
        if (unreadable.contains(table)) {
            return null;
        }
        Set<String> columns = known.get(table);
        if (columns == null) {
            try {
                columns = new LinkedHashSet<>(reader.columns(table.database(), table.table()));
            } catch (Exception e) {
                unreadable.add(table);
                LOG.warn("Cannot read the columns of target table {}.{}; its rows are loaded without checking them "
                        + "for columns the table lacks: {}", table.database(), table.table(),
                        String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
                return null;
            }
            known.put(table, columns);
        }
        return columns;
    }

    /** Makes the next {@link #of} read {@code table}'s columns again (after a schema change). */
    public void forget(TargetTable table) {
        known.remove(table);
        unreadable.remove(table);
    }

    /** Records columns this subtask has the target add (they arrive ahead of the rows that carry them). */
    public void added(TargetTable table, Collection<String> columns) {
        Set<String> set = of(table);
        if (set != null) {
            columns.forEach(c -> set.add(c.toLowerCase(Locale.ROOT)));
        }
    }

    /** Records columns this subtask has the target drop. */
    public void dropped(TargetTable table, Collection<String> columns) {
        Set<String> set = of(table);
        if (set != null) {
            columns.forEach(c -> set.remove(c.toLowerCase(Locale.ROOT)));
        }
    }
}
