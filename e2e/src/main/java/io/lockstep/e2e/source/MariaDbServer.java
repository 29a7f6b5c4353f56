package io.lockstep.e2e.source;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A private MariaDB server for the end-to-end runs, from the binaries of Debian's {@code mariadb-server} package
 * ({@code .ci/run} installs it): its own data directory (created with {@code mariadb-install-db}), a free port on
 * 127.0.0.1, the binary log in ROW format with full row images (GTIDs are always on in MariaDB), and a user
 * {@code lockstep}/{@code lockstep} with the grants Debezium's binlog connector needs. Closing it stops the server
 * and deletes its data.
 */
public final class MariaDbServer implements AutoCloseable {

    /** The database the workload writes. */
    public static final String DATABASE = "shop";
    public static final String USER = "lockstep";
    public static final String PASSWORD = "lockstep";

    private final Process server;
    private final Path dir;
    private final int port;

    private MariaDbServer(Process server, Path dir, int port) {
        this.server = server;
        this.dir = dir;
        this.port = port;
    }

    /** @return the directory holding {@code mariadbd}, or empty when MariaDB is not installed */
    public static Optional<Path> binaries() {
        for (String candidate : List.of("/usr/sbin", "/usr/bin", "/usr/local/mysql/bin")) {
            if (Files.isExecutable(Path.of(candidate, "mariadbd"))) {
                return Optional.of(Path.of(candidate));
            }
        }
        return Optional.empty();
    }

    /**
     * Creates a data directory, starts the server and creates the user and {@link #DATABASE}.
     *
     * @throws IllegalStateException when MariaDB is not installed or does not start within 60 s
     */
    public static MariaDbServer start() throws IOException, InterruptedException, SQLException {
        Path bin = binaries().orElseThrow(() -> new IllegalStateException(
                "mariadbd not found: install Debian's mariadb-server (.ci/run does)"));
        Path dir = Files.createTempDirectory("lockstep-mariadb");
        Path data = dir.resolve("data");
        Path installDb = Files.isExecutable(bin.getParent().resolve("bin/mariadb-install-db"))
                ? bin.getParent().resolve("bin/mariadb-install-db") : Path.of("mariadb-install-db");
        run(List.of(installDb.toString(), "--no-defaults", "--user=root", "--datadir=" + data,
                "--auth-root-authentication-method=normal", "--skip-test-db"), dir.resolve("install.log"));
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(bin.resolve("mariadbd").toString(), "--no-defaults",
                "--user=root", "--datadir=" + data, "--port=" + port, "--bind-address=127.0.0.1",
                "--socket=" + dir.resolve("mysqld.sock"), "--pid-file=" + dir.resolve("mysqld.pid"),
                "--server-id=1", "--log-bin=" + dir.resolve("binlog"), "--binlog-format=ROW",
                "--binlog-row-image=FULL", "--character-set-server=utf8mb4", "--default-time-zone=+00:00",
                "--innodb-buffer-pool-size=64M", "--skip-log-error"));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.redirectErrorStream(true);
        builder.redirectOutput(dir.resolve("server.log").toFile());
        Process server = builder.start();
        MariaDbServer mariadb = new MariaDbServer(server, dir, port);
        try {
            mariadb.awaitUp();
            try (Connection root = DriverManager.getConnection(mariadb.url(""), "root", "");
                    Statement statement = root.createStatement()) {
                statement.execute("CREATE USER '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'");
                statement.execute("GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, REPLICATION CLIENT,"
                        + " BINLOG MONITOR, LOCK TABLES ON *.* TO '" + USER + "'@'%'");
                statement.execute("CREATE DATABASE " + DATABASE + " CHARACTER SET utf8mb4");
                statement.execute("GRANT ALL ON " + DATABASE + ".* TO '" + USER + "'@'%'");
            }
            return mariadb;
        } catch (SQLException | RuntimeException e) {
            mariadb.close();
            throw e;
        }
    }

    private void awaitUp() throws InterruptedException, IOException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IllegalStateException("mariadbd exited with " + server.exitValue() + ": "
                        + Files.readString(dir.resolve("server.log")));
            }
            try (Connection ignored = DriverManager.getConnection(url(""), "root", "")) {
                return;
            } catch (SQLException e) {
                last = e;
                Thread.sleep(200);
            }
        }
        throw new IllegalStateException("mariadbd did not accept connections within 60 s", last);
    }

    private static void run(List<String> command, Path log) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (process.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + Files.readString(log));
        }
    }

    /** @return the JDBC URL of a database (empty for none), session time zone UTC */
    public String url(String database) {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + database
                + "?connectionTimeZone=UTC&forceConnectionTimeZoneToSession=true&useSSL=false"
                + "&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true";
    }

    /** @return a new connection to {@link #DATABASE} as {@link #USER} */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url(DATABASE), USER, PASSWORD);
    }

    /** @return the port on 127.0.0.1 */
    public int port() {
        return port;
    }

    /** Runs statements in {@link #DATABASE}, one after the other, in auto-commit mode. */
    public void execute(List<String> statements) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.destroy();
        try {
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
