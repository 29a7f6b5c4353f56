package io.lockstep.app.cli;

import io.lockstep.app.create.CreateTableStatement;
import io.lockstep.app.create.JdbcSourceCatalog;
import io.lockstep.app.create.MidStreamTableCreator;
import io.lockstep.app.create.SourceCatalogException;
import io.lockstep.app.create.SourceTable;
import io.lockstep.app.create.TableCreation;
import io.lockstep.app.create.TableCreator;
import io.lockstep.app.create.TableRefusedException;
import io.lockstep.app.route.TargetTable;
import io.lockstep.core.progress.ProgressTable;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The pre-flight step of {@code lockstep run --create-tables} (docs/table-creation.md#running-it), before the target
 * check: with {@code --source-jdbc-url} the included source tables are read from the source catalog and each one's
 * {@code CREATE TABLE} is built first, so a table that cannot be created exactly is refused (one line each) before
 * anything is created; then the target database, the progress table (exactly-once) and each table are created
 * through {@code --jdbc-url} ({@link TableCreator}: existing tables are never dropped or altered, one with other
 * columns is named in one WARN line). The result is one summary line.
 *
 * <p>Stateless apart from its settings; used on the thread running the command. Never logs a password.
 */
final class RunCreateTables {

    private final TableCreation creation;
    private final TableCreator creator;

    /**
     * @param creation the selection, DDL options and source catalog of {@code --create-tables}
     * @param creator creates through the target's MySQL-protocol port
     */
    RunCreateTables(TableCreation creation, TableCreator creator) {
        this.creation = Objects.requireNonNull(creation, "creation");
        this.creator = Objects.requireNonNull(creator, "creator");
    }

    /**
     * @param database the target database
     * @param progressTable the progress table of the exactly-once mode, or {@code null}
     * @return the summary line, e.g. {@code tables: 20 created, 1 already there, 0 with other columns (left as they
     *     are) of 21 source tables; progress table shop.lockstep_progress created}
     * @throws RunRefusedException one line per table that cannot be created, or naming what the source catalog or
     *     the target refused; nothing is created when a table is refused
     * @throws InterruptedException if interrupted while waiting for a created table to show
     */
    String run(String database, ProgressTable progressTable) throws RunRefusedException, InterruptedException {
        List<CreateTableStatement> statements = creation.sourceJdbcUrl() == null ? List.of() : statements();
        try {
            creator.ensureDatabase(database);
            String progress = "";
            if (progressTable != null) {
                TableCreator.Outcome outcome = creator.ensureProgressTable(progressTable);
                progress = "; progress table " + progressTable.qualifiedName()
                        + (outcome == TableCreator.Outcome.CREATED ? " created" : " already there");
            }
            Map<TableCreator.Outcome, Integer> counts = new EnumMap<>(TableCreator.Outcome.class);
            for (CreateTableStatement statement : statements) {
                counts.merge(creator.ensureTable(statement.target(), statement.source(), creation.options()), 1,
                        Integer::sum);
            }
            if (creation.sourceJdbcUrl() == null) {
                return "database '" + database + "' ready" + progress + "; each table is created at its first row "
                        + "(a table that receives no event is not created: give --source-jdbc-url to create every "
                        + "included table now)";
            }
            return "tables: " + counts.getOrDefault(TableCreator.Outcome.CREATED, 0) + " created, "
                    + counts.getOrDefault(TableCreator.Outcome.ALREADY_SAME, 0) + " already there, "
                    + counts.getOrDefault(TableCreator.Outcome.EXISTS_DIFFERENT, 0) + " with other columns (left as "
                    + "they are, see the WARN lines) of " + statements.size() + " included source tables in '"
                    + database + "'" + progress;
        } catch (SQLException e) {
            throw new RunRefusedException(List.of("--create-tables: the target refused: " + e.getMessage()
                    + " (check --jdbc-url, and that --user may create databases and tables)"));
        }
    }

    /**
     * @return the statement of every included source table, in catalog order
     * @throws RunRefusedException one line per refused table, or the catalog's problem
     */
    private List<CreateTableStatement> statements() throws RunRefusedException {
        Map<SourceTable, TargetTable> targets;
        try (JdbcSourceCatalog catalog = JdbcSourceCatalog.open(creation.sourceJdbcUrl(), creation.sourceUser(),
                creation.sourcePassword())) {
            List<SourceTable> tables = catalog.tables(name -> {
                String[] parts = name.split("\\.", 2);
                return parts.length == 2 && creation.selection().includes(parts[0], parts[1]);
            });
            targets = creation.selection().targets(tables);
        } catch (SourceCatalogException | IllegalArgumentException e) {
            throw new RunRefusedException(List.of("--create-tables: " + e.getMessage()));
        }
        List<CreateTableStatement> statements = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        targets.forEach((source, target) -> {
            try {
                statements.add(CreateTableStatement.of(source, target, creation.options()));
            } catch (TableRefusedException e) {
                refused.add("--create-tables: " + e.getMessage());
            }
        });
        if (!refused.isEmpty()) {
            refused.add("--create-tables: nothing was created; fix the tables above (--column-type, --key-columns) "
                    + "or leave them out (--exclude-tables)");
            throw new RunRefusedException(refused);
        }
        return statements;
    }

    /** @return the creator of {@code lockstep run}'s target, waiting up to {@link MidStreamTableCreator#VISIBLE_TIMEOUT_MS} */
    static TableCreator creator(String jdbcUrl, String user, String password) {
        return new TableCreator(jdbcUrl, user, password, MidStreamTableCreator.VISIBLE_TIMEOUT_MS);
    }
}
