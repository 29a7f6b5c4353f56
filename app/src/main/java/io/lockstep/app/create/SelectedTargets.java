package io.lockstep.app.create;

import io.lockstep.app.route.TargetNaming;
import io.lockstep.app.route.TargetTable;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link TargetNaming} of {@code lockstep run --create-tables}: the source tables a {@link TableSelection} selects
 * and their target tables (docs/table-creation.md#naming-and-selection). The routing asks once per row, so each
 * source table's answer is kept (per instance, in memory; rebuilt after deserialization).
 *
 * <p>Serializable (it travels inside the job's router). Safe for any thread (a concurrent map).
 */
public final class SelectedTargets implements TargetNaming {

    private static final long serialVersionUID = 1L;
    /** Marks an excluded table in {@link #answers} (a concurrent map holds no {@code null}). */
    private static final TargetTable EXCLUDED = new TargetTable("-", "-");

    private final TableSelection selection;
    /** {@code db.table} to its target or {@link #EXCLUDED}; created lazily (also after deserialization). */
    private transient volatile Map<String, TargetTable> answers;

    /** @param selection the selected tables and their names */
    SelectedTargets(TableSelection selection) {
        this.selection = Objects.requireNonNull(selection, "selection");
    }

    @Override
    public TargetTable target(String sourceDatabase, String sourceTable) {
        Map<String, TargetTable> known = answers;
        if (known == null) {
            known = new ConcurrentHashMap<>();
            answers = known; // two threads may each start a map: both give the same answers
        }
        TargetTable target = known.computeIfAbsent(sourceDatabase + "." + sourceTable, name -> {
            TargetTable named = selection.target(sourceDatabase, sourceTable);
            return named == null ? EXCLUDED : named;
        });
        return target == EXCLUDED ? null : target;
    }

    @Override
    public String describeSelection() {
        return "--include-tables, --exclude-tables";
    }
}
