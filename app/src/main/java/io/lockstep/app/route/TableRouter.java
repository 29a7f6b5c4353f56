package io.lockstep.app.route;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Maps a source table {@code db.table} to the target StarRocks table. Immutable and serializable (it is
 * shipped inside the assembler).
 *
 * <p>Without a table map every source table loads into the table of the same name in the default
 * database. With a map, only mapped tables load; rows of other tables fail the job or are dropped,
 * per {@link UnknownTableMode}. With the target's table list ({@link #withTargetTables}, from the pre-flight
 * check), a route to a table the target database lacks is unknown in the same way, map or not. With a
 * {@link TargetNaming} ({@link #withNaming}, {@code --create-tables}) the naming gives each source table's target in
 * place of the same name, and the rows of a table it excludes are always skipped (whatever {@link UnknownTableMode}).
 */
public final class TableRouter implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String defaultDatabase;
    private final LinkedHashMap<String, TargetTable> tableMap;
    private final UnknownTableMode unknownTableMode;
    /** The target's tables as listed at start, or {@code null} when not known (nothing checked). */
    private final TargetTables targetTables;
    /** Names the targets in place of the same-name routing, or {@code null}. */
    private final TargetNaming naming;

    /**
     * @param defaultDatabase target database when no table map is given
     * @param tableMap source {@code db.table} to target; empty for the same-name default
     * @param unknownTableMode what to do with tables not in a non-empty map
     */
    public TableRouter(String defaultDatabase, Map<String, TargetTable> tableMap, UnknownTableMode unknownTableMode) {
        this(defaultDatabase, tableMap, unknownTableMode, null, null);
    }

    private TableRouter(String defaultDatabase, Map<String, TargetTable> tableMap, UnknownTableMode unknownTableMode,
            TargetTables targetTables, TargetNaming naming) {
        this.targetTables = targetTables;
        this.naming = naming;
        this.defaultDatabase = defaultDatabase;
        this.tableMap = new LinkedHashMap<>(tableMap);
        this.unknownTableMode = Objects.requireNonNull(unknownTableMode, "unknownTableMode");
        if (this.tableMap.isEmpty() && (defaultDatabase == null || defaultDatabase.isBlank())) {
            throw new IllegalArgumentException("a target database is required when no table map is given");
        }
    }

    /**
     * Parses the {@code --table-map} option.
     *
     * @param tableMapSpec {@code src_db.src_table=target_db.target_table,...}; {@code null} or blank for
     *     the same-name default
     * @param defaultDatabase target database of the same-name default
     * @param unknownTableMode what to do with unmapped tables
     * @return the router
     * @throws IllegalArgumentException naming the entry that is not {@code a.b=c.d}, or a source table
     *     mapped twice
     */
    public static TableRouter parse(String tableMapSpec, String defaultDatabase, UnknownTableMode unknownTableMode) {
        Map<String, TargetTable> map = new LinkedHashMap<>();
        if (tableMapSpec != null && !tableMapSpec.isBlank()) {
            for (String entry : tableMapSpec.split(",")) {
                String trimmed = entry.trim();
                String[] sides = trimmed.split("=", -1);
                if (sides.length != 2 || qualifiedName(sides[0]) == null || qualifiedName(sides[1]) == null) {
                    throw new IllegalArgumentException("invalid table map entry '" + trimmed
                            + "': expected src_db.src_table=target_db.target_table");
                }
                String[] target = qualifiedName(sides[1]);
                String source = sides[0].trim();
                if (map.put(source, new TargetTable(target[0], target[1])) != null) {
                    throw new IllegalArgumentException("table map names source table '" + source + "' twice");
                }
            }
        }
        return new TableRouter(defaultDatabase, map, unknownTableMode);
    }

    private static String[] qualifiedName(String text) {
        String[] parts = text.trim().split("\\.", -1);
        if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
            return null;
        }
        return parts;
    }

    /**
     * @param tables the target's tables as listed before the job started, or {@code null} to check none
     * @return this router, also treating a route to a table that {@code tables} lacks as unknown
     */
    public TableRouter withTargetTables(TargetTables tables) {
        return new TableRouter(defaultDatabase, tableMap, unknownTableMode, tables, naming);
    }

    /**
     * @param targetNaming names each source table's target and excludes tables, or {@code null} for the same-name
     *     routing
     * @return this router routing by {@code targetNaming}
     * @throws IllegalArgumentException when this router has a table map (the two cannot be combined)
     */
    public TableRouter withNaming(TargetNaming targetNaming) {
        if (targetNaming != null && !tableMap.isEmpty()) {
            throw new IllegalArgumentException("a table map and a target naming cannot be combined");
        }
        return new TableRouter(defaultDatabase, tableMap, unknownTableMode, targetTables, targetNaming);
    }

    /**
     * @param sourceDatabase source database (Debezium: schema for PostgreSQL)
     * @param sourceTable source table
     * @return the target table, or {@code null} when the table is unknown (unmapped, or missing from the
     *     target's table list) and {@link UnknownTableMode#SKIP} is configured
     * @throws UnknownTableException when the table is unknown and {@link UnknownTableMode#FAIL} is
     *     configured
     */
    public TargetTable route(String sourceDatabase, String sourceTable) {
        String unknown = unknownReason(sourceDatabase, sourceTable);
        if (unknown == null) {
            return tableMap.isEmpty() ? sameNameTarget(sourceDatabase, sourceTable)
                    : tableMap.get(sourceDatabase + "." + sourceTable);
        }
        if (unknownTableMode == UnknownTableMode.SKIP || excluded(sourceDatabase, sourceTable)) {
            return null;
        }
        throw new UnknownTableException(unknown + "; " + (tableMap.isEmpty() || unknown.contains("does not exist")
                ? "create it, or skip unknown tables (--unknown-table skip)" : "map it, or skip unknown tables"));
    }

    /**
     * @param sourceDatabase source database
     * @param sourceTable source table
     * @return why rows of the table cannot load (not in the table map; the target table does not exist), or
     *     {@code null} when they route to a table that exists or may exist
     */
    public String unknownReason(String sourceDatabase, String sourceTable) {
        String source = sourceDatabase + "." + sourceTable;
        if (excluded(sourceDatabase, sourceTable)) {
            return "source table '" + source + "' is not selected (" + naming.describeSelection() + ")";
        }
        TargetTable target = tableMap.isEmpty() ? sameNameTarget(sourceDatabase, sourceTable) : tableMap.get(source);
        if (target == null) {
            return "source table '" + source + "' is not in the table map (mapped: "
                    + String.join(", ", tableMap.keySet()) + ")";
        }
        if (targetTables != null && !targetTables.mayExist(target)) {
            return "target table '" + target + "' of source table '" + source + "' does not exist";
        }
        return null;
    }

    /**
     * Whether no row of a source table is ever loaded, so that its schema changes cannot matter
     * (docs/schema-changes.md): the table map does not name it (whatever {@link UnknownTableMode}: with
     * {@code fail} its rows stop the job when they come, not its DDL), or its target table does not exist and
     * {@link UnknownTableMode#SKIP} drops its rows.
     *
     * @param sourceDatabase source database
     * @param sourceTable source table
     * @return why the table's rows are never loaded, or {@code null} when they are (or fail as unknown)
     */
    public String notLoadedReason(String sourceDatabase, String sourceTable) {
        String unknown = unknownReason(sourceDatabase, sourceTable);
        if (unknown == null) {
            return null;
        }
        boolean unmapped = !tableMap.isEmpty() && !tableMap.containsKey(sourceDatabase + "." + sourceTable);
        return unmapped || excluded(sourceDatabase, sourceTable) || unknownTableMode == UnknownTableMode.SKIP ? unknown : null;
    }

    /** @return the same-name target (through the {@link TargetNaming} when there is one), or {@code null} if excluded */
    private TargetTable sameNameTarget(String sourceDatabase, String sourceTable) {
        return naming == null ? new TargetTable(defaultDatabase, sourceTable)
                : naming.target(sourceDatabase, sourceTable);
    }

    /** @return whether the {@link TargetNaming} excludes the table (never without one) */
    private boolean excluded(String sourceDatabase, String sourceTable) {
        return naming != null && naming.target(sourceDatabase, sourceTable) == null;
    }

    /** @return the target tables the table map names, in map order; empty for the same-name routing */
    public Set<TargetTable> mappedTargets() {
        return new LinkedHashSet<>(tableMap.values());
    }

    /** @return the target databases rows can be routed to: the default one, or those the table map names */
    public Set<String> targetDatabases() {
        Set<String> databases = new LinkedHashSet<>();
        if (tableMap.isEmpty()) {
            databases.add(defaultDatabase);
        }
        for (TargetTable target : tableMap.values()) {
            databases.add(target.database());
        }
        return databases;
    }

    /** @return what happens to unmapped tables */
    public UnknownTableMode unknownTableMode() {
        return unknownTableMode;
    }
}
