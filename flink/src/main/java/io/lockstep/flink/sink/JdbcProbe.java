package io.lockstep.flink.sink;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The optional {@code jdbc-url} probe (option {@code jdbc-url}, docs/options.md): connects to the FE over the MySQL
 * protocol and logs the server version its handshake reports (driver metadata, no query). Loads never depend on it: an
 * absent URL, a missing JDBC driver or an unreachable server is logged and the sink runs on. The emulator answers it on
 * its query port ({@code StarRocksEmulator.jdbcUrl()}).
 *
 * <p>Lockstep ships no MySQL driver; the probe runs only when the job's classpath has one that accepts the URL
 * ({@link DriverManager#getDriver}). Connect and read waits are bounded by {@code timeoutMs} through the driver's
 * {@code connectTimeout}/{@code socketTimeout} properties (MySQL Connector/J and MariaDB names). The password is
 * passed as a connection property and never logged; the URL is logged without its query part, which may carry
 * credentials.
 */
public final class JdbcProbe {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcProbe.class);

    /** What a probe found. */
    public enum Outcome {
        /** No {@code jdbc-url} configured. */
        NOT_CONFIGURED,
        /** No JDBC driver on the classpath accepts the URL. */
        NO_DRIVER,
        /** Connected and read the server version. */
        REACHED,
        /** The driver could not connect or query; logged at WARN. */
        UNREACHABLE
    }

    private JdbcProbe() {
    }

    /**
     * Probes {@code jdbcUrl} once; never throws.
     *
     * @param jdbcUrl   the {@code jdbc-url} option, or null
     * @param timeoutMs longest connect and read wait, ms
     * @return what happened (also logged: INFO when reached or skipped, WARN when unreachable)
     */
    public static Outcome probe(@Nullable String jdbcUrl, String username, String password, int timeoutMs) {
        if (jdbcUrl == null || jdbcUrl.isBlank()) {
            LOG.info("jdbc-url is not set; server probes are skipped (loads use load-url only)");
            return Outcome.NOT_CONFIGURED;
        }
        String shownUrl = withoutQuery(jdbcUrl);
        try {
            DriverManager.getDriver(jdbcUrl);
        } catch (SQLException e) {
            LOG.info("no JDBC driver on the classpath accepts jdbc-url {}; server probes are skipped (loads use "
                    + "load-url only)", shownUrl);
            return Outcome.NO_DRIVER;
        }
        Properties props = new Properties();
        props.setProperty("user", username == null ? "" : username);
        props.setProperty("password", password == null ? "" : password);
        props.setProperty("connectTimeout", String.valueOf(timeoutMs));
        props.setProperty("socketTimeout", String.valueOf(timeoutMs));
        try (Connection connection = DriverManager.getConnection(jdbcUrl, props)) {
            DatabaseMetaData meta = connection.getMetaData();
            LOG.info("jdbc-url {} reached; server {} version {}", shownUrl, meta.getDatabaseProductName(),
                    meta.getDatabaseProductVersion());
            return Outcome.REACHED;
        } catch (SQLException | RuntimeException e) {
            LOG.warn("jdbc-url {} is unreachable ({}); server probes are skipped and the sink runs on, loading "
                    + "through load-url", shownUrl, e.getMessage());
            return Outcome.UNREACHABLE;
        }
    }

    /** The URL up to its query ({@code ?...}), which may hold a password. */
    static String withoutQuery(String url) {
        int q = url.indexOf('?');
        return q < 0 ? url : url.substring(0, q) + "?...";
    }
}
