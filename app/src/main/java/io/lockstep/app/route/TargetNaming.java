package io.lockstep.app.route;

import java.io.Serializable;

/**
 * Names the target table of each source table when the job creates its tables ({@code lockstep run --create-tables},
 * docs/table-creation.md#naming-and-selection): a selection of the source tables (the others are excluded: their rows
 * are skipped) and the target name of each selected one. Implementations are immutable and serializable (they travel
 * inside the {@link TableRouter}).
 */
public interface TargetNaming extends Serializable {

    /**
     * @param sourceDatabase the source database (PostgreSQL: schema)
     * @param sourceTable the source table
     * @return the target table, or {@code null} when the source table is excluded
     */
    TargetTable target(String sourceDatabase, String sourceTable);

    /** @return the options that exclude tables, for the line saying a table's rows are skipped */
    String describeSelection();
}
