package io.lockstep.app.create;

import io.lockstep.app.route.TargetTable;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which source tables table creation (and loading) takes, and the target table each goes to
 * (docs/table-creation.md#naming-and-selection): a table {@code db.table} (PostgreSQL: {@code schema.table}) is
 * included when it fully matches one include pattern (or there are none) and no exclude pattern; Java regular
 * expressions ({@link Pattern}), case-sensitive, comma-separated (a comma inside {@code {}}, {@code []} or {@code ()}
 * belongs to its pattern, e.g. {@code a{1,3}}). The target is {@code targetDatabase.prefix + table + suffix}.
 * Immutable, serializable and thread-safe.
 */
public final class TableSelection implements Serializable {

    private static final long serialVersionUID = 1L;

    private final List<Pattern> include;
    private final List<Pattern> exclude;
    private final String targetDatabase;
    private final String prefix;
    private final String suffix;

    private TableSelection(List<Pattern> include, List<Pattern> exclude, String targetDatabase, String prefix,
            String suffix) {
        this.include = List.copyOf(include);
        this.exclude = List.copyOf(exclude);
        this.targetDatabase = targetDatabase;
        this.prefix = prefix;
        this.suffix = suffix;
    }

    /**
     * @param include {@code --include-tables}: patterns, comma-separated; {@code null} or blank for every table
     * @param exclude {@code --exclude-tables}: patterns, comma-separated; {@code null} or blank for none
     * @param targetDatabase the StarRocks database every table goes to
     * @param prefix put before each target table name; {@code null} for none
     * @param suffix put after each target table name; {@code null} for none
     * @return the selection
     * @throws IllegalArgumentException naming the option and the pattern that does not compile (with the regex
     *     error), an empty pattern, or a blank target database
     */
    public static TableSelection of(String include, String exclude, String targetDatabase, String prefix,
            String suffix) {
        if (targetDatabase == null || targetDatabase.isBlank()) {
            throw new IllegalArgumentException("table creation needs a target database (--database)");
        }
        return new TableSelection(patterns("--include-tables", include), patterns("--exclude-tables", exclude),
                targetDatabase, prefix == null ? "" : prefix, suffix == null ? "" : suffix);
    }

    /**
     * @param database source database or schema
     * @param table source table
     * @return whether the table is selected
     */
    public boolean includes(String database, String table) {
        String name = database + "." + table;
        return (include.isEmpty() || include.stream().anyMatch(p -> p.matcher(name).matches()))
                && exclude.stream().noneMatch(p -> p.matcher(name).matches());
    }

    /**
     * @param database source database or schema
     * @param table source table
     * @return the target table, or {@code null} when the table is not selected
     */
    public TargetTable target(String database, String table) {
        return includes(database, table) ? new TargetTable(targetDatabase, prefix + table + suffix) : null;
    }

    /**
     * The targets of several source tables, refusing two that would go to one target table (e.g. {@code a.orders}
     * and {@code b.orders}, since the target name does not hold the source database).
     *
     * @param tables source tables
     * @return the selected ones, in the given order, with their targets
     * @throws IllegalArgumentException naming both source tables and the target they share
     */
    public Map<SourceTable, TargetTable> targets(Collection<SourceTable> tables) {
        Map<SourceTable, TargetTable> targets = new LinkedHashMap<>();
        Map<TargetTable, SourceTable> sources = new LinkedHashMap<>();
        for (SourceTable table : tables) {
            TargetTable target = target(table.database(), table.table());
            if (target == null) {
                continue;
            }
            SourceTable other = sources.putIfAbsent(target, table);
            if (other != null) {
                throw new IllegalArgumentException("source tables " + other.qualifiedName() + " and "
                        + table.qualifiedName() + " would both load into " + target + "; exclude one"
                        + " (--exclude-tables) or load them in separate runs with other prefixes");
            }
            targets.put(table, target);
        }
        return targets;
    }

    /** @return the target database */
    public String targetDatabase() {
        return targetDatabase;
    }

    private static List<Pattern> patterns(String option, String list) {
        List<Pattern> patterns = new ArrayList<>();
        if (list == null || list.isBlank()) {
            return patterns;
        }
        for (String text : split(list)) {
            String pattern = text.strip();
            if (pattern.isEmpty()) {
                throw new IllegalArgumentException(option + " '" + list + "' has an empty pattern");
            }
            try {
                patterns.add(Pattern.compile(pattern));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(option + " pattern '" + pattern + "' is not a Java regular"
                        + " expression: " + e.getDescription() + " near index " + e.getIndex());
            }
        }
        return patterns;
    }

    /** Splits at commas outside {@code {}}, {@code []} and {@code ()}, leaving escaped characters alone. */
    private static List<String> split(String list) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '{' || c == '[' || c == '(') {
                depth++;
            } else if ((c == '}' || c == ']' || c == ')') && depth > 0) {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(list.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(list.substring(start));
        return parts;
    }

    @Override
    public String toString() {
        return "include " + include + " exclude " + exclude + " into " + targetDatabase + "." + prefix + "*"
                + suffix;
    }
}
