package io.lockstep.app.route;

import java.io.Serializable;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The tables each target database held when the job's pre-flight check listed them
 * ({@code io.lockstep.app.job.TargetCheck}), so that the assemblers catch a row of a table the target lacks before
 * it is sent (the server would reject the whole shared transaction, earlier source transactions included).
 * Databases that were not listed (the server offers no way to list them, e.g. Apache Doris over HTTP) are not
 * checked. Immutable and serializable (it travels inside the {@link TableRouter}).
 *
 * <p>A table created in the target after the check is unknown to the running job until its next start.
 */
public final class TargetTables implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Database to its table names, exactly as the server lists them (StarRocks table names are case-sensitive). */
    private final LinkedHashMap<String, TreeSet<String>> tablesByDatabase = new LinkedHashMap<>();

    /** @param tablesByDatabase the listed databases and their tables; databases left out are not checked */
    public TargetTables(Map<String, ? extends Collection<String>> tablesByDatabase) {
        tablesByDatabase.forEach((database, tables) -> this.tablesByDatabase.put(database, new TreeSet<>(tables)));
    }

    /** @return whether {@code database}'s tables were listed */
    public boolean listed(String database) {
        return tablesByDatabase.containsKey(database);
    }

    /**
     * @param target a target table
     * @return {@code false} only when its database was listed and the table was not in it
     */
    public boolean mayExist(TargetTable target) {
        Set<String> tables = tablesByDatabase.get(target.database());
        return tables == null || tables.contains(target.table());
    }

    /** @return the listed tables of {@code database}, sorted; empty when it was not listed */
    public Set<String> tables(String database) {
        Set<String> tables = tablesByDatabase.get(database);
        return tables == null ? Set.of() : Set.copyOf(tables);
    }

    @Override
    public String toString() {
        return "TargetTables" + tablesByDatabase;
    }
}
