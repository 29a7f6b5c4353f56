package io.lockstep.app.create;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads source tables' shapes from the source database's own catalog over JDBC, for table creation when events carry
 * no schema ({@code schemas.enable=false}) or before any event arrived. Supported URLs:
 * <ul>
 *   <li>{@code jdbc:postgresql://host:port/database}: every base table (also partitioned tables and partitions) of
 *       every schema of that database except {@code pg_catalog}, {@code information_schema}, {@code pg_toast*} and
 *       {@code pg_temp*}; {@link SourceTable#database()} is the schema (as Debezium's {@code source.schema});
 *   <li>{@code jdbc:mysql://host:port[/db]} and {@code jdbc:mariadb://host:port[/db]} (MySQL Connector/J serves
 *       MariaDB, so a {@code jdbc:mariadb:} URL is opened as {@code jdbc:mysql:}): every base table of every database
 *       except {@code mysql}, {@code information_schema}, {@code performance_schema} and {@code sys}.
 * </ul>
 * What each column's facts are is said by the dialects ({@code PostgresCatalogDialect}, {@code MySqlCatalogDialect})
 * and in docs/table-creation.md#where-the-types-come-from.
 *
 * <p>One connection, opened by {@link #open} and opened again when found lost before a read (said at INFO); connect
 * and read timeouts are set unless the URL sets them ({@code connectTimeout} 10 s, {@code socketTimeout} 60 s), so an
 * unreachable source fails in one line instead of hanging. Not thread safe: its owner is the thread that uses it
 * (the preflight, or the sink's task thread for tables created mid-stream). Never logs or reports the password.
 */
public final class JdbcSourceCatalog implements AutoCloseable {

    private static final Pattern PASSWORD_PARAMETER =
            Pattern.compile("(?i)(password[^=&;]*=)[^&;]*");

    private static final Logger LOG = LoggerFactory.getLogger(JdbcSourceCatalog.class);
    /** Seconds {@link Connection#isValid} may take before a connection counts as lost. */
    private static final int VALID_TIMEOUT_SECONDS = 5;

    /** The URL to connect to (may hold a password: never logged or reported; {@link #safeUrl} is). */
    private final String url;
    private final Properties properties;
    private final String safeUrl;
    private final String user;
    private final SourceCatalogDialect dialect;
    /** Confined to the owner's thread (see the class comment); replaced when found lost. */
    private Connection connection;

    private JdbcSourceCatalog(String url, Properties properties, String safeUrl, String user,
            SourceCatalogDialect dialect) {
        this.url = url;
        this.properties = properties;
        this.safeUrl = safeUrl;
        this.user = user;
        this.dialect = dialect;
        this.connection = connect();
    }

    /**
     * Connects to the source database.
     *
     * @param jdbcUrl a {@code jdbc:postgresql:}, {@code jdbc:mysql:} or {@code jdbc:mariadb:} URL
     * @param user the user; it needs to see the tables' columns (PostgreSQL: any privilege on the table, e.g. the
     *     SELECT that Debezium needs anyway; MySQL/MariaDB: any privilege on the table)
     * @param password the password, may be {@code null} or empty
     * @return the open catalog; close it
     * @throws SourceCatalogException (one line naming the URL without password) when the URL is of another database
     *     or the connection fails
     */
    public static JdbcSourceCatalog open(String jdbcUrl, String user, String password) {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        String safeUrl = withoutPassword(jdbcUrl);
        String lower = jdbcUrl.toLowerCase(Locale.ROOT);
        SourceCatalogDialect dialect;
        String url = jdbcUrl;
        if (lower.startsWith("jdbc:postgresql:")) {
            dialect = new PostgresCatalogDialect();
        } else if (lower.startsWith("jdbc:mysql:")) {
            dialect = new MySqlCatalogDialect();
        } else if (lower.startsWith("jdbc:mariadb:")) {
            dialect = new MySqlCatalogDialect();
            url = "jdbc:mysql:" + jdbcUrl.substring("jdbc:mariadb:".length());
        } else {
            throw new SourceCatalogException("the source JDBC URL " + safeUrl + " is not a jdbc:postgresql:, jdbc:mysql:"
                    + " or jdbc:mariadb: URL; table creation reads only those catalogs");
        }
        Properties properties = new Properties();
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null && !password.isEmpty()) {
            properties.setProperty("password", password);
        }
        dialect.connectionDefaults().forEach((name, value) -> {
            if (!lower.contains(name.toLowerCase(Locale.ROOT) + "=")) {
                properties.setProperty(name, value);
            }
        });
        return new JdbcSourceCatalog(url, properties, safeUrl, user, dialect);
    }

    private Connection connect() {
        try {
            Connection opened = DriverManager.getConnection(url, properties);
            opened.setReadOnly(true);
            return opened;
        } catch (SQLException e) {
            throw new SourceCatalogException("cannot connect to the source database " + safeUrl + " as user '" + user
                    + "': " + oneLine(e), e);
        }
    }

    /**
     * @param includeQualifiedName whether to describe the table {@code db.table} ({@code schema.table} on PostgreSQL)
     * @return the included base tables of every non-system database/schema, ordered by database and table
     * @throws SourceCatalogException when the catalog cannot be read, or the user sees an included table but none of
     *     its columns (a missing privilege); the message names the URL and the table
     */
    public List<SourceTable> tables(Predicate<String> includeQualifiedName) {
        Objects.requireNonNull(includeQualifiedName, "includeQualifiedName");
        return read(null, null, includeQualifiedName);
    }

    /**
     * @param database the database (MySQL/MariaDB) or schema (PostgreSQL), exactly as the source spells it
     * @param table the table name, exactly as the source spells it
     * @return the table's shape, or {@code null} when no such base table exists (or the user may not see it)
     * @throws SourceCatalogException as {@link #tables}
     */
    public SourceTable table(String database, String table) {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
        List<SourceTable> found = read(database, table, name -> true);
        return found.isEmpty() ? null : found.get(0);
    }

    private List<SourceTable> read(String database, String table, Predicate<String> include) {
        try {
            if (!connection.isValid(VALID_TIMEOUT_SECONDS)) {
                // a job runs for days: the source may have restarted or dropped an idle session meanwhile
                LOG.info("the connection to the source database {} was lost; connecting again", safeUrl);
                close();
                connection = connect();
            }
            return dialect.read(connection, database, table, include);
        } catch (SQLException e) {
            throw new SourceCatalogException("cannot read the catalog of the source database " + safeUrl + ": "
                    + oneLine(e), e);
        } catch (SourceCatalogException e) {
            throw new SourceCatalogException(e.getMessage() + " (source " + safeUrl + ")", e.getCause());
        }
    }

    /** Closes the connection; a failure to close is not reported (nothing was written). */
    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // read-only session: nothing to lose
        }
    }

    /** @return the URL with the value of every {@code password...=} parameter replaced by {@code ***} */
    static String withoutPassword(String jdbcUrl) {
        return PASSWORD_PARAMETER.matcher(jdbcUrl).replaceAll("$1***");
    }

    private static String oneLine(SQLException e) {
        String message = String.valueOf(e.getMessage()).replaceAll("\\s+", " ").trim();
        return (e.getSQLState() == null ? "" : "SQLState " + e.getSQLState() + ", ") + message;
    }
}
