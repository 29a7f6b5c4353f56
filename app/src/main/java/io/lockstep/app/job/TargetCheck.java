package io.lockstep.app.job;

import io.lockstep.app.schema.ColumnReadException;
import io.lockstep.app.schema.JdbcColumnReader;

import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.TargetTable;
import io.lockstep.app.route.TargetTables;
import io.lockstep.core.client.FailureClass;
import io.lockstep.core.client.SqlResult;
import io.lockstep.core.client.StarRocksSqlClient;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.config.SinkConfigSource;
import io.lockstep.flink.sink.SinkSettings;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pre-flight check of {@code lockstep run} against the target, before a Flink job is started (as
 * {@code io.lockstep.app.kafka.TopicCheck} checks Kafka), with the sink's own addresses, user and password:
 * <ol>
 *   <li>credentials and databases: the FE is asked for the state of a label no one uses
 *       ({@code GET /api/{db}/get_load_state}, StarRocks {@code GetStreamLoadState}; Doris the same path) in each
 *       target database: HTTP 401/403 means the credentials are refused, an {@code unknown database} reply that
 *       the database does not exist, an address that does not answer is named with the reason
 *       ({@code cannot reach StarRocks FE at URL: connection refused (check --load-url ...)}), and an address that
 *       answers as a BE's HTTP port is named as one, with the FE port to give instead ({@link BackendPortProbe}); the
 *       check asks once,
 *       without the sink's retries, so no retry warnings come before that line;</li>
 *   <li>tables (StarRocks): each existing target database's tables are listed through the HTTP SQL API
 *       ({@code SELECT TABLE_NAME FROM information_schema.tables WHERE TABLE_SCHEMA = 'db'}, StarRocks 3.2+,
 *       StarRocks docs, https://docs.starrocks.io/docs/sql-reference/http_sql_api/);
 *       every table the table map names and, in the exactly-once
 *       mode, the progress table must be among them. The list is handed to the job ({@link TargetTables}) so that
 *       rows of tables the target lacks are caught before they are sent. Apache Doris offers no SQL over this HTTP
 *       interface, so on Doris (and on a StarRocks without the SQL API) tables are not checked here: a missing table
 *       fails the job at its first load, in one line.</li>
 *   <li>{@code --jdbc-url}, when given: a connection and {@code SELECT 1} within 5 s, since the job reads the
 *       tables' column types through it; a port that does not answer as a MySQL-protocol server is named.</li>
 * </ol>
 *
 * <p>Stateless; the clients are closed before returning. Never logs the password.
 */
public final class TargetCheck {

    private static final Logger LOG = LoggerFactory.getLogger(TargetCheck.class);

    private TargetCheck() {
    }

    /**
     * What the check found.
     *
     * @param problems one line per problem, empty when the target is ready
     * @param tables the tables of the databases that could be listed (the others are not checked at run time)
     */
    public record Result(List<String> problems, TargetTables tables) {
    }

    /**
     * @param source the sink's configuration (load-url, user, password, target, retries), or the facade holding it
     * @param router the job's routing: its target databases and the tables its table map names
     * @param progressTable the progress table of the exactly-once mode, or {@code null} when the job has none
     * @return the problems, one line each, and the tables listed
     */
    public static Result check(SinkConfigSource source, TableRouter router, ProgressTable progressTable) {
        SinkConfig options = source.sinkConfig();
        Set<String> databases = new LinkedHashSet<>(router.targetDatabases());
        if (progressTable != null) {
            databases.add(progressTable.database());
        }
        List<String> problems = new ArrayList<>();
        Set<String> existing = existingDatabases(options, databases, problems);
        Map<String, Set<String>> listed = new LinkedHashMap<>();
        if (options.getTarget().hasHttpSqlApi() && !existing.isEmpty()) { // lists the tables
            try (StarRocksSqlClient sql = new StarRocksSqlClient(SinkSettings.from(options).clientConfig(),
                    LoadMetrics.noop())) {
                for (String database : existing) {
                    listTables(sql, database).ifPresent(tables -> listed.put(database, tables));
                }
            }
        }
        TargetTables tables = new TargetTables(listed);
        for (TargetTable target : router.mappedTargets()) {
            if (tables.listed(target.database()) && !tables.mayExist(target)) {
                problems.add("target table '" + target + "' does not exist at " + urls(options)
                        + " (check --table-map)");
            }
        }
        if (progressTable != null && tables.listed(progressTable.database())
                && !tables.mayExist(new TargetTable(progressTable.database(), progressTable.table()))) {
            problems.add("progress table " + progressTable.qualifiedName() + " does not exist at " + urls(options)
                    + ": the exactly-once mode keeps the committed positions there (or use --semantic at-least-once);"
                    + " create it with: " + progressTable.createTableSql().replaceAll("\\s*\\n\\s*", " "));
        }
        jdbcProblem(options).ifPresent(problems::add);
        return new Result(problems, tables);
    }

    /** Longest wait of the {@code --jdbc-url} check for the connection and its reply, ms. */
    static final long JDBC_CHECK_TIMEOUT_MS = 5_000;

    /**
     * The {@code --jdbc-url} check, when one is given: the job reads the target tables' column types through it (and
     * applies schema changes), so a URL that does not answer as a MySQL-protocol server (another port, the FE's HTTP
     * port) is named here, once, instead of restarting the job.
     */
    private static Optional<String> jdbcProblem(SinkConfig options) {
        String jdbcUrl = options.getJdbcUrl();
        if (jdbcUrl == null || jdbcUrl.isBlank()) {
            return Optional.empty();
        }
        try {
            new JdbcColumnReader(jdbcUrl, options.getUsername(), options.getPassword()).check(JDBC_CHECK_TIMEOUT_MS);
            return Optional.empty();
        } catch (ColumnReadException e) {
            return Optional.of(e.getMessage().replaceAll("\\s*\\n\\s*", " ") + " (check --jdbc-url: the "
                    + feName(options) + "'s MySQL-protocol port, query_port, default 9030"
                    + (e.kind() == ColumnReadException.Kind.ACCESS_DENIED ? ", and --user and --password)" : ")"));
        }
    }

    /** Adds a line per refused credential or missing database to {@code problems}; returns the databases found. */
    private static Set<String> existingDatabases(SinkConfig options, Set<String> databases,
            List<String> problems) {
        Set<String> existing = new LinkedHashSet<>();
        String probe = "lockstep-preflight-" + UUID.randomUUID();
        try (TransactionClient client = SinkSettings.from(withoutRetries(options))
                .newTransactionClient(LoadMetrics.noop())) {
            for (String database : databases) {
                try {
                    client.labelState(database, probe);
                    existing.add(database);
                } catch (TransactionException e) {
                    if (e.failureClass() == FailureClass.ACCESS_DENIED) {
                        problems.add("target " + urls(options) + " refuses user '" + options.getUsername()
                                + "' (HTTP 401/403): check --user and --password");
                        return Set.of(); // the same for every database
                    }
                    if (e.failureClass() == FailureClass.DATA_ERROR) {
                        problems.add("target database '" + database + "' does not exist at " + urls(options)
                                + " (check --database or --table-map)");
                    } else {
                        Optional<String> unreachable = unreachable(e);
                        Optional<String> backend = unreachable.isPresent() ? Optional.empty()
                                : backendPort(options);
                        if (backend.isPresent()) {
                            problems.add(backend.get());
                            return Set.of();
                        }
                        problems.add(unreachable.isPresent()
                                ? "cannot reach " + feName(options) + " at " + urls(options) + ": " + unreachable.get()
                                        + " (check --load-url and that the FE is up)"
                                : "target " + urls(options) + " cannot be asked about database '" + database + "': "
                                        + e.getMessage());
                        return Set.of();
                    }
                }
            }
        } catch (Exception e) { // closing the client
            problems.add("target " + urls(options) + " cannot be checked: " + e);
            return Set.of();
        }
        return existing;
    }

    /**
     * @return the sink's options with {@code sink.max-retries} 0: the check asks once and names what failed, without
     *     the client's retry warnings (the job itself keeps its retries)
     */
    private static SinkConfig withoutRetries(SinkConfig options) {
        return SinkConfig.builder().options(options).maxRetries(0)
                .build();
    }

    /**
     * @return why the FE could not be reached ({@code connection refused}, {@code unknown host H},
     *     {@code connection timed out}), when the request never got a reply; empty when the FE replied
     */
    private static Optional<String> unreachable(TransactionException e) {
        if (e.failureClass() != null) {
            return Optional.empty(); // a classified reply: the FE answered
        }
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof UnknownHostException) {
                return Optional.of("unknown host " + cause.getMessage());
            }
            if (cause instanceof ConnectException) { // HttpHostConnectException too
                return Optional.of("connection refused");
            }
            if (cause instanceof InterruptedIOException) { // socket and connect timeouts of the HTTP client
                return Optional.of("connection timed out");
            }
            if (cause instanceof NoRouteToHostException) {
                return Optional.of("no route to host");
            }
        }
        return Optional.empty();
    }

    /** @return the line naming the first load URL that answers as a BE's HTTP port, if one does */
    private static Optional<String> backendPort(SinkConfig options) {
        for (String url : options.getLoadUrls()) {
            Optional<String> hint = BackendPortProbe.backendHint(url, options.getTarget());
            if (hint.isPresent()) {
                return hint;
            }
        }
        return Optional.empty();
    }

    private static String feName(SinkConfig options) {
        return options.getTarget().displayName() + " FE";
    }

    /** @return the tables of {@code database}, or empty when the server cannot list them (no SQL API) */
    private static Optional<Set<String>> listTables(StarRocksSqlClient sql, String database) {
        try {
            SqlResult result = sql.select(database, "SELECT TABLE_NAME FROM information_schema.tables WHERE "
                    + "TABLE_SCHEMA = '" + database.replace("'", "''") + "'");
            Set<String> tables = new LinkedHashSet<>();
            for (List<Object> row : result.rows()) {
                tables.add(String.valueOf(row.get(0)));
            }
            return Optional.of(tables);
        } catch (TransactionException e) {
            LOG.warn("Tables of target database '{}' not checked: the HTTP SQL API cannot list them ({})", database,
                    e.getMessage());
            return Optional.empty();
        }
    }

    private static String urls(SinkConfig options) {
        return String.join(";", options.getLoadUrls());
    }
}
