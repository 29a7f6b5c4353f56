package io.lockstep.app.cli;

import io.lockstep.core.server.Target;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The options of {@code lockstep run --create-tables} (docs/table-creation.md#running-it): before the job starts the
 * target database, the progress table and, with {@code --source-jdbc-url}, every included source table are created in
 * the target; while it runs, a row of a table the target lacks has the table created ahead of its transaction
 * (docs/table-creation.md#tables-created-mid-stream). A picocli mixin of {@link RunCommand}; {@link #check} refuses
 * the combinations that cannot work. Read on the thread running the command; not thread safe.
 */
final class RunTableCreation {

    @Option(names = "--create-tables", description = "Create what the job loads into (StarRocks only): before "
            + "the start the database, the progress table and, with --source-jdbc-url, every included source table; "
            + "while running, a table at its first row (its types from the event's schema, else from "
            + "--source-jdbc-url). Existing tables are never dropped or altered. Needs --jdbc-url "
            + "(docs/table-creation.md).")
    boolean createTables;

    @Option(names = "--source-jdbc-url", paramLabel = "jdbc:postgresql://...|jdbc:mysql://...",
            description = "With --create-tables: the source database's JDBC URL; its catalog gives every included "
                    + "table's columns and key, so tables are created before the start, also those that receive no "
                    + "event, and events without schemas (schemas.enable=false) can create tables too.")
    String sourceJdbcUrl;

    @Option(names = "--source-user", description = "With --source-jdbc-url: the source user (reads the catalog).")
    String sourceUser;

    @Option(names = "--source-password", arity = "0..1", interactive = true,
            defaultValue = "${env:LOCKSTEP_SOURCE_PASSWORD:-}",
            description = "With --source-jdbc-url: the source user's password; without a value it is prompted for; "
                    + "default: the environment variable LOCKSTEP_SOURCE_PASSWORD, else empty. Never logged.")
    String sourcePassword;

    @Option(names = "--include-tables", paramLabel = "REGEX[,REGEX...]",
            description = "With --create-tables: only source tables whose SRC_DB.TABLE fully matches one of these "
                    + "Java regular expressions are created and loaded (default: all).")
    String includeTables;

    @Option(names = "--exclude-tables", paramLabel = "REGEX[,REGEX...]",
            description = "With --create-tables: source tables whose SRC_DB.TABLE fully matches one of these are "
                    + "neither created nor loaded (their rows are skipped, said once per table).")
    String excludeTables;

    @Option(names = "--table-prefix", description = "With --create-tables: the target table of source table T is "
            + "PREFIX + T + SUFFIX in --database (default: none).")
    String tablePrefix = "";

    @Option(names = "--table-suffix", description = "With --create-tables: see --table-prefix (default: none).")
    String tableSuffix = "";

    @Option(names = "--table-buckets", paramLabel = "N", description = "With --create-tables: BUCKETS of each "
            + "created table; 0 leaves it out and StarRocks chooses (default: ${DEFAULT-VALUE}).")
    int tableBuckets;

    @Option(names = "--table-property", paramLabel = "KEY=VALUE", description = "With --create-tables: a "
            + "PROPERTIES entry of each created table (repeatable), e.g. replication_num=1.")
    Map<String, String> tableProperties = new LinkedHashMap<>();

    @Option(names = "--column-type", paramLabel = "SRC_DB.TABLE.COLUMN=STARROCKS_TYPE", description = "With "
            + "--create-tables: the StarRocks type of one source column (repeatable), e.g. for a column whose "
            + "values the default mapping refuses (docs/table-creation.md#type-mapping).")
    Map<String, String> columnTypes = new LinkedHashMap<>();

    /**
     * Refuses the combinations that cannot work.
     *
     * @param target {@code --target}
     * @param jdbcUrl {@code --jdbc-url}, or {@code null}
     * @param tableMap {@code --table-map}, or {@code null}
     * @throws IllegalArgumentException with the one-line usage error
     */
    void check(Target target, String jdbcUrl, String tableMap) {
        if (!createTables) {
            String given = sourceJdbcUrl != null ? "--source-jdbc-url" : sourceUser != null ? "--source-user"
                    : includeTables != null ? "--include-tables" : excludeTables != null ? "--exclude-tables"
                    : !tablePrefix.isEmpty() ? "--table-prefix" : !tableSuffix.isEmpty() ? "--table-suffix"
                    : tableBuckets != 0 ? "--table-buckets" : !tableProperties.isEmpty() ? "--table-property"
                    : !columnTypes.isEmpty() ? "--column-type" : null;
            if (given != null) {
                throw new IllegalArgumentException(given + " applies to --create-tables only");
            }
            return;
        }
        if (!target.hasMultiTableTransactions()) {
            throw new IllegalArgumentException("--create-tables creates StarRocks tables only: Doris' DDL differs "
                    + "(UNIQUE KEY merge-on-write, DATETIMEV2 precision); create the Doris tables yourself "
                    + "(docs/table-creation.md#doris)");
        }
        if (jdbcUrl == null) {
            throw new IllegalArgumentException("--create-tables needs --jdbc-url (the StarRocks MySQL-protocol port, "
                    + "e.g. jdbc:mysql://fe1:9030), through which the tables are created");
        }
        if (tableMap != null) {
            throw new IllegalArgumentException("--create-tables names each target table itself (--database, "
                    + "--table-prefix, --table-suffix) and cannot follow --table-map: drop one of them");
        }
        if (sourceJdbcUrl != null && sourceUser == null) {
            throw new IllegalArgumentException("--source-jdbc-url needs --source-user (and --source-password or "
                    + "LOCKSTEP_SOURCE_PASSWORD)");
        }
        if (sourceJdbcUrl == null && sourceUser != null) {
            throw new IllegalArgumentException("--source-user applies to --source-jdbc-url only");
        }
        if (tableBuckets < 0) {
            throw new IllegalArgumentException("--table-buckets must not be negative, got " + tableBuckets);
        }
    }
}
