package io.lockstep.app.create;

import java.io.Serializable;
import java.util.Objects;

/**
 * How {@code lockstep run --create-tables} creates target tables (docs/table-creation.md): which source tables are
 * selected and what their targets are called ({@link #targets()}, for the job's routing), the DDL options of each
 * created table, and the source catalog ({@code --source-jdbc-url}) that describes tables whose events carry no
 * schema. Immutable and serializable: it travels inside the assemblers
 * (docs/table-creation.md#tables-created-mid-stream).
 *
 * @param selection the selected source tables and their target names
 * @param options buckets, properties, column type overrides and key columns of a created table
 * @param sourceJdbcUrl the source database's JDBC URL, or {@code null}
 * @param sourceUser the source user, or {@code null}
 * @param sourcePassword the source password (never logged; {@link #toString} hides it), may be empty
 */
public record TableCreation(TableSelection selection, TableCreationOptions options, String sourceJdbcUrl,
        String sourceUser, String sourcePassword) implements Serializable {

    private static final long serialVersionUID = 1L;

    /** @throws NullPointerException without a selection or options */
    public TableCreation {
        Objects.requireNonNull(selection, "selection");
        Objects.requireNonNull(options, "options");
        sourcePassword = sourcePassword == null ? "" : sourcePassword;
    }

    /** @return the selection and naming of the target tables, for the job's routing */
    public SelectedTargets targets() {
        return new SelectedTargets(selection);
    }

    /** @return the password hidden */
    @Override
    public String toString() {
        return "TableCreation[" + selection + ", " + options + ", sourceJdbcUrl=" + sourceJdbcUrl + ", sourceUser="
                + sourceUser + ", sourcePassword=***]";
    }
}
