package io.lockstep.e2e.resend;

import io.lockstep.e2e.source.PostgresServer;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The PostgreSQL transactions of the crash-and-resend test, over three small tables ({@code accounts},
 * {@code orders}, {@code order_lines}), from {@value #SESSIONS} client sessions (one connection each, transactions
 * open at the same time). The interleaving is fixed, not left to thread timing: in a {@link #round} every session
 * first takes its xid ({@code txid_current()}) and writes, in session order, then the sessions finish and commit in
 * an order that is never the xid order, so the topic's transaction order (commit order) differs from xid order.
 *
 * <p>Each method returns the PostgreSQL xids of the transactions it committed (the low 32 bits of
 * {@code txid_current()}, what Debezium's {@code source.txId} and transaction ids carry). Not thread-safe.
 */
public final class CrashWorkload implements AutoCloseable {

    /** Concurrent client sessions. */
    public static final int SESSIONS = 3;
    /** The captured tables, for {@code table.include.list}. */
    public static final String TABLES = "public.accounts,public.orders,public.order_lines";

    /** The commit order of the sessions in round {@code r % 4}; never 1, 2, 3. */
    private static final int[][] COMMIT_ORDERS = {{3, 1, 2}, {2, 3, 1}, {3, 2, 1}, {2, 1, 3}};

    private final List<Connection> sessions = new ArrayList<>();
    private long nextOrder = 1;

    /**
     * Creates the tables and opens the sessions.
     *
     * @param postgres the server
     */
    public CrashWorkload(PostgresServer postgres) throws SQLException {
        postgres.execute(List.of(
                "CREATE TABLE accounts (id BIGINT PRIMARY KEY, owner VARCHAR(40) NOT NULL,"
                        + " balance NUMERIC(12,2) NOT NULL, updated_at TIMESTAMPTZ NOT NULL)",
                "CREATE TABLE orders (id BIGINT PRIMARY KEY, account_id BIGINT NOT NULL,"
                        + " total NUMERIC(12,2) NOT NULL, status VARCHAR(16) NOT NULL)",
                "CREATE TABLE order_lines (order_id BIGINT NOT NULL, line INT NOT NULL, sku VARCHAR(20) NOT NULL,"
                        + " qty INT NOT NULL, PRIMARY KEY (order_id, line))"));
        for (int s = 0; s < SESSIONS; s++) {
            Connection connection = postgres.connect();
            connection.setAutoCommit(false);
            sessions.add(connection);
        }
    }

    /**
     * One transaction of session 1 touching all three tables: inserts one account per session, one order and
     * {@code lines} order lines ({@code lines + SESSIONS + 1} change events).
     *
     * @return its xid
     */
    public long opening(int lines) throws SQLException {
        Connection c = sessions.get(0);
        long xid = xid(c);
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO accounts (id, owner, balance, updated_at) VALUES (?, ?, 100.00, now())")) {
            for (int s = 1; s <= SESSIONS; s++) {
                insert.setLong(1, s);
                insert.setString(2, "session " + s);
                insert.executeUpdate();
            }
        }
        order(c, 1, lines);
        c.commit();
        return xid;
    }

    /**
     * One large transaction of session {@code session}: moves its account's balance, inserts an order and
     * {@code lines} order lines ({@code lines + 2} change events).
     *
     * @return its xid
     */
    public long large(int session, int lines) throws SQLException {
        Connection c = sessions.get(session - 1);
        long xid = xid(c);
        touchAccount(c, session, lines);
        order(c, session, lines);
        c.commit();
        return xid;
    }

    /**
     * Every session opens a transaction (xid and the account update in session order), then they insert an order
     * with 2 or 3 lines and commit in the order {@code COMMIT_ORDERS[round % 4]}.
     *
     * @return the xids, in commit order
     */
    public List<Long> round(int round) throws SQLException {
        long[] xids = new long[SESSIONS + 1];
        for (int s = 1; s <= SESSIONS; s++) {
            Connection c = sessions.get(s - 1);
            xids[s] = xid(c);
            touchAccount(c, s, round + s);
        }
        List<Long> committed = new ArrayList<>();
        for (int s : COMMIT_ORDERS[round % COMMIT_ORDERS.length]) {
            Connection c = sessions.get(s - 1);
            order(c, s, 2 + (round + s) % 2);
            c.commit();
            committed.add(xids[s]);
        }
        return committed;
    }

    private static long xid(Connection c) throws SQLException {
        try (Statement statement = c.createStatement();
                ResultSet rs = statement.executeQuery("SELECT txid_current() % 4294967296")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void touchAccount(Connection c, int session, int amount) throws SQLException {
        try (PreparedStatement update = c.prepareStatement(
                "UPDATE accounts SET balance = balance + ?, updated_at = now() WHERE id = ?")) {
            update.setBigDecimal(1, BigDecimal.valueOf(amount, 2));
            update.setLong(2, session);
            update.executeUpdate();
        }
    }

    private void order(Connection c, int session, int lines) throws SQLException {
        long orderId = nextOrder++;
        try (PreparedStatement order = c.prepareStatement(
                "INSERT INTO orders (id, account_id, total, status) VALUES (?, ?, ?, 'NEW')")) {
            order.setLong(1, orderId);
            order.setLong(2, session);
            order.setBigDecimal(3, BigDecimal.valueOf(lines * 250L + orderId, 2));
            order.executeUpdate();
        }
        try (PreparedStatement line = c.prepareStatement(
                "INSERT INTO order_lines (order_id, line, sku, qty) VALUES (?, ?, ?, ?)")) {
            for (int n = 1; n <= lines; n++) {
                line.setLong(1, orderId);
                line.setInt(2, n);
                line.setString(3, "SKU-" + (orderId * 7 + n) % 1000);
                line.setInt(4, 1 + n % 5);
                line.addBatch();
            }
            line.executeBatch();
        }
    }

    @Override
    public void close() throws SQLException {
        for (Connection c : sessions) {
            c.close();
        }
    }
}
