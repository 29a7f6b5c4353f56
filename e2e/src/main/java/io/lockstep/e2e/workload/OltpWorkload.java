package io.lockstep.e2e.workload;

import io.lockstep.e2e.workload.OltpSchema.Dialect;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Real multi-statement SQL transactions over the four {@link OltpSchema} tables, from several concurrent sessions
 * (one JDBC connection each): inserts, updates, deletes, primary key changes, transactions touching one table only,
 * one large transaction of thousands of rows, long text with emoji, TOASTed text an update leaves unchanged, JSON,
 * bytes, decimals of fixed and variable scale, dates, timestamps with and without time zone. Every transaction writes
 * its own id ({@link TxnLedger#txnId}) into the {@code txn_id} column of every row it inserts or updates and records
 * its writes in the {@link TxnLedger} before it commits.
 *
 * <p>Each session owns its keys ({@code session * 10_000_000 + n}), so sessions never block each other. Thread-safe:
 * {@link #run} starts one thread per session; the counters may be read from any thread.
 */
public final class OltpWorkload {

    /** Opens a new connection to the source database. */
    @FunctionalInterface
    public interface ConnectionFactory {
        /** @return a new connection; the workload closes it */
        Connection open() throws SQLException;
    }

    private static final long KEY_FACTOR = 10_000_000L;
    private static final String[] NAMES = {"Zoë 🚀", "Łukasz", "Ада", "李雷 🐉", "O'Brien", "José 😀", "Björk", "Ana"};
    private static final String[] STATUSES = {"NEW", "PAID", "SHIPPED", "DONE"};

    private final ConnectionFactory connections;
    private final Dialect dialect;
    private final TxnLedger ledger;
    private final int sessions;
    private final int transactionsPerSession;
    private final int largeTransactionRows;
    private final long seed;
    /** Sessions are numbered from this one on (a second run on the same tables uses new sessions). */
    private int firstSession = 1;
    /** Pause after each commit, per session, in milliseconds. */
    private long pauseMs;
    /** Whether each transaction also inserts its row into {@link OltpSchema#TXN_LOG}. */
    private boolean txnLog;
    /** Transactions committed, all sessions. */
    private final AtomicLong committed = new AtomicLong();
    /** Rows written (inserted, updated or deleted), all sessions. */
    private final AtomicLong rowsWritten = new AtomicLong();

    /**
     * @param connections opens one connection per session
     * @param dialect the source's SQL dialect
     * @param ledger where transactions record their writes
     * @param sessions concurrent sessions (threads)
     * @param transactionsPerSession transactions each session commits
     * @param largeTransactionRows rows of the one large transaction (session 0, halfway); 0 for none
     * @param seed the random seed (values and the mix of transactions)
     */
    public OltpWorkload(ConnectionFactory connections, Dialect dialect, TxnLedger ledger, int sessions,
            int transactionsPerSession, int largeTransactionRows, long seed) {
        this.connections = connections;
        this.dialect = dialect;
        this.ledger = ledger;
        this.sessions = sessions;
        this.transactionsPerSession = transactionsPerSession;
        this.largeTransactionRows = largeTransactionRows;
        this.seed = seed;
    }

    /**
     * @param session the first session number (default 1); a second workload on the same tables must use sessions
     *     the first one did not
     * @param pauseMillis pause after each commit, per session (default 0)
     * @return this workload
     */
    public OltpWorkload sessions(int session, long pauseMillis) {
        this.firstSession = session;
        this.pauseMs = pauseMillis;
        return this;
    }

    /**
     * Makes every transaction insert one row into {@link OltpSchema#TXN_LOG} (its id, session, seq and the number of
     * keys it upserted and deleted) just before it commits; the table must exist ({@link OltpSchema#txnLogSourceDdl}).
     *
     * @return this workload
     */
    public OltpWorkload withTxnLog() {
        this.txnLog = true;
        return this;
    }

    /**
     * Inserts a transaction's {@link OltpSchema#TXN_LOG} row.
     *
     * @param connection the transaction's connection
     * @param txnId its id ({@link TxnLedger#txnId})
     * @param upserts keys it inserted or updated
     * @param deletes keys it deleted
     */
    public static void logTransaction(Connection connection, long txnId, int upserts, int deletes)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO txn_log (txn_id, session, seq, upserts, deletes) VALUES (?, ?, ?, ?, ?)")) {
            insert.setLong(1, txnId);
            insert.setInt(2, (int) (txnId / TxnLedger.SESSION_FACTOR));
            insert.setLong(3, txnId % TxnLedger.SESSION_FACTOR);
            insert.setInt(4, upserts);
            insert.setInt(5, deletes);
            insert.executeUpdate();
        }
    }

    /**
     * Runs every session to its end.
     *
     * @throws Exception the first session's failure
     */
    public void run() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(sessions);
        try {
            List<Future<Void>> results = new ArrayList<>();
            for (int s = firstSession; s < firstSession + sessions; s++) {
                int session = s;
                Callable<Void> task = () -> {
                    try (Connection connection = connections.open()) {
                        connection.setAutoCommit(false);
                        new Session(session, connection).run();
                    }
                    return null;
                };
                results.add(pool.submit(task));
            }
            for (Future<Void> result : results) {
                result.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Commits the warm-up transaction: one customer row with id 1 and transaction id {@code txnId(0, 1)} (session 0
     * is not used by {@link #run}). A caller waits for it in the target before {@link #run}, so that the connector is
     * streaming: rows that exist before the connector's initial snapshot arrive as snapshot reads, one row at a
     * time, not as transactions.
     *
     * @param connection a connection in auto-commit mode
     * @param ledger the ledger to record it in
     */
    public static void warmUp(Connection connection, TxnLedger ledger) throws SQLException {
        long txnId = TxnLedger.txnId(0, 1);
        ledger.record(txnId, List.of("customers/1"), List.of());
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO customers (id, name, vip, balance,"
                + " created_at, updated_at, txn_id) VALUES (1, 'warm-up', FALSE, 0, ?, ?, ?)")) {
            LocalDateTime at = LocalDateTime.of(2024, 1, 1, 0, 0);
            insert.setObject(1, at);
            insert.setObject(2, at);
            insert.setLong(3, txnId);
            insert.executeUpdate();
        }
    }

    /** @return transactions committed so far */
    public long committed() {
        return committed.get();
    }

    /** @return rows written so far */
    public long rowsWritten() {
        return rowsWritten.get();
    }

    /** One session: its connection, its keys, its random values. Confined to its thread. */
    private final class Session {
        private final int id;
        private final Connection connection;
        private final Random random;
        private final List<Long> customers = new ArrayList<>();
        private final List<long[]> orders = new ArrayList<>(); // {orderId, nextLine, customerId}
        private final List<List<Integer>> orderLines = new ArrayList<>();
        private final List<Long> documents = new ArrayList<>();
        private long nextKey;
        private long seq;
        private long txnId;
        private final List<String> upserts = new ArrayList<>();
        private final List<String> deletes = new ArrayList<>();

        Session(int id, Connection connection) {
            this.id = id;
            this.connection = connection;
            this.random = new Random(seed * 31 + id);
            this.nextKey = id * KEY_FACTOR;
        }

        void run() throws SQLException {
            for (int i = 0; i < transactionsPerSession; i++) {
                begin();
                if (id == firstSession && i == transactionsPerSession / 2 && largeTransactionRows > 0) {
                    largeOrder();
                } else if (customers.isEmpty() || i < 3) {
                    newCustomer();
                } else {
                    int pick = random.nextInt(100);
                    if (pick < 10) {
                        newCustomer(); // one table only
                    } else if (pick < 35) {
                        newOrder();
                    } else if (pick < 50 && !orders.isEmpty()) {
                        updateOrder();
                    } else if (pick < 60 && !orders.isEmpty()) {
                        cancelOrder();
                    } else if (pick < 70 && !orders.isEmpty()) {
                        moveItem();
                    } else if (pick < 80) {
                        newDocument();
                    } else if (pick < 92 && !documents.isEmpty()) {
                        touchDocument();
                    } else if (!documents.isEmpty()) {
                        renumberDocument();
                    } else {
                        newOrder();
                    }
                }
                commit();
                if (pauseMs > 0) {
                    try {
                        Thread.sleep(pauseMs);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new SQLException("interrupted", e);
                    }
                }
            }
        }

        private void begin() {
            seq++;
            txnId = TxnLedger.txnId(id, seq);
            upserts.clear();
            deletes.clear();
        }

        private void commit() throws SQLException {
            if (txnLog) {
                logTransaction(connection, txnId, upserts.size(), deletes.size());
            }
            ledger.record(txnId, List.copyOf(upserts), List.copyOf(deletes));
            connection.commit();
            committed.incrementAndGet();
            rowsWritten.addAndGet(upserts.size() + deletes.size());
        }

        private long key() {
            return ++nextKey;
        }

        private void newCustomer() throws SQLException {
            long customer = key();
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO customers (id, name, email, vip,"
                    + " born, balance, created_at, updated_at, txn_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                insert.setLong(1, customer);
                insert.setString(2, NAMES[random.nextInt(NAMES.length)] + " #" + customer);
                insert.setString(3, random.nextInt(5) == 0 ? null : "c" + customer + "@example.com");
                insert.setBoolean(4, random.nextBoolean());
                insert.setObject(5, random.nextInt(6) == 0 ? null : LocalDate.of(1950 + random.nextInt(60),
                        1 + random.nextInt(12), 1 + random.nextInt(28)));
                insert.setBigDecimal(6, money(100_000));
                insert.setObject(7, timestamp());
                setTimestampTz(insert, 8, timestampTz());
                insert.setLong(9, txnId);
                insert.executeUpdate();
            }
            customers.add(customer);
            upserts.add("customers/" + customer);
        }

        private void touchCustomer() throws SQLException {
            long customer = customers.get(random.nextInt(customers.size()));
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE customers SET balance = balance + ?, updated_at = ?, vip = ?, txn_id = ? WHERE id = ?")) {
                update.setBigDecimal(1, money(100));
                setTimestampTz(update, 2, timestampTz());
                update.setBoolean(3, random.nextBoolean());
                update.setLong(4, txnId);
                update.setLong(5, customer);
                update.executeUpdate();
            }
            upserts.add("customers/" + customer);
        }

        private void newOrder() throws SQLException {
            insertOrder(1 + random.nextInt(5));
            touchCustomer();
        }

        private void largeOrder() throws SQLException {
            insertOrder(largeTransactionRows);
        }

        private void insertOrder(int lines) throws SQLException {
            long order = key();
            long customer = customers.get(random.nextInt(customers.size()));
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO orders (id, customer_id, status,"
                    + " total, discount, placed_at, meta, txn_id) VALUES (?, ?, ?, ?, ?, ?, " + jsonParameter()
                    + ", ?)")) {
                insert.setLong(1, order);
                insert.setLong(2, customer);
                insert.setString(3, STATUSES[0]);
                insert.setBigDecimal(4, money(10_000));
                insert.setBigDecimal(5, random.nextInt(4) == 0 ? null
                        : new BigDecimal(random.nextInt(1_000_000)).movePointLeft(random.nextInt(8)));
                setTimestampTz(insert, 6, timestampTz());
                insert.setString(7, meta());
                insert.setLong(8, txnId);
                insert.executeUpdate();
            }
            upserts.add("orders/" + order);
            List<Integer> lineNumbers = new ArrayList<>();
            try (PreparedStatement item = connection.prepareStatement(
                    "INSERT INTO order_items (order_id, line, sku, qty, price, txn_id) VALUES (?, ?, ?, ?, ?, ?)")) {
                for (int line = 1; line <= lines; line++) {
                    item.setLong(1, order);
                    item.setInt(2, line);
                    item.setString(3, "SKU-" + random.nextInt(10_000) + (random.nextInt(10) == 0 ? " ☕" : ""));
                    item.setInt(4, 1 + random.nextInt(9));
                    item.setBigDecimal(5, money(1_000));
                    item.setLong(6, txnId);
                    item.addBatch();
                    lineNumbers.add(line);
                    upserts.add("order_items/" + order + ":" + line);
                    if (line % 500 == 0) {
                        item.executeBatch();
                    }
                }
                item.executeBatch();
            }
            orders.add(new long[] {order, lines + 1L, customer});
            orderLines.add(lineNumbers);
        }

        private void updateOrder() throws SQLException {
            int index = random.nextInt(orders.size());
            long[] order = orders.get(index);
            try (PreparedStatement update = connection.prepareStatement("UPDATE orders SET status = ?, total = ?,"
                    + " meta = " + jsonParameter() + ", txn_id = ? WHERE id = ?")) {
                update.setString(1, STATUSES[random.nextInt(STATUSES.length)]);
                update.setBigDecimal(2, money(10_000));
                update.setString(3, meta());
                update.setLong(4, txnId);
                update.setLong(5, order[0]);
                update.executeUpdate();
            }
            upserts.add("orders/" + order[0]);
            List<Integer> lines = orderLines.get(index);
            if (!lines.isEmpty()) {
                int line = lines.get(random.nextInt(lines.size()));
                try (PreparedStatement update = connection.prepareStatement(
                        "UPDATE order_items SET qty = qty + 1, txn_id = ? WHERE order_id = ? AND line = ?")) {
                    update.setLong(1, txnId);
                    update.setLong(2, order[0]);
                    update.setInt(3, line);
                    update.executeUpdate();
                }
                upserts.add("order_items/" + order[0] + ":" + line);
            }
            int line = (int) order[1]++;
            try (PreparedStatement item = connection.prepareStatement(
                    "INSERT INTO order_items (order_id, line, sku, qty, price, txn_id) VALUES (?, ?, ?, 1, ?, ?)")) {
                item.setLong(1, order[0]);
                item.setInt(2, line);
                item.setString(3, "EXTRA-" + line);
                item.setBigDecimal(4, money(100));
                item.setLong(5, txnId);
                item.executeUpdate();
            }
            lines.add(line);
            upserts.add("order_items/" + order[0] + ":" + line);
        }

        private void cancelOrder() throws SQLException {
            int index = random.nextInt(orders.size());
            long order = orders.remove(index)[0];
            List<Integer> lines = orderLines.remove(index);
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM order_items WHERE order_id = ?")) {
                delete.setLong(1, order);
                delete.executeUpdate();
            }
            for (int line : lines) {
                deletes.add("order_items/" + order + ":" + line);
            }
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM orders WHERE id = ?")) {
                delete.setLong(1, order);
                delete.executeUpdate();
            }
            deletes.add("orders/" + order);
            touchCustomer();
        }

        /** A primary key change: an item moves to a new line number. */
        private void moveItem() throws SQLException {
            int index = random.nextInt(orders.size());
            long[] order = orders.get(index);
            List<Integer> lines = orderLines.get(index);
            if (lines.isEmpty()) {
                newOrder();
                return;
            }
            int position = random.nextInt(lines.size());
            int from = lines.get(position);
            int to = (int) order[1]++;
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE order_items SET line = ?, txn_id = ? WHERE order_id = ? AND line = ?")) {
                update.setInt(1, to);
                update.setLong(2, txnId);
                update.setLong(3, order[0]);
                update.setInt(4, from);
                update.executeUpdate();
            }
            lines.set(position, to);
            deletes.add("order_items/" + order[0] + ":" + from);
            upserts.add("order_items/" + order[0] + ":" + to);
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE orders SET total = ?, txn_id = ? WHERE id = ?")) {
                update.setBigDecimal(1, money(10_000));
                update.setLong(2, txnId);
                update.setLong(3, order[0]);
                update.executeUpdate();
            }
            upserts.add("orders/" + order[0]);
        }

        private void newDocument() throws SQLException {
            long document = key();
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO documents (id, title, body,"
                    + " attachment, version, txn_id) VALUES (?, ?, ?, ?, 1, ?)")) {
                insert.setLong(1, document);
                insert.setString(2, "Doc " + document + " 📄 " + NAMES[random.nextInt(NAMES.length)]);
                insert.setString(3, longText(8_000 + random.nextInt(8_000)));
                byte[] attachment = new byte[random.nextInt(64)];
                random.nextBytes(attachment);
                insert.setBytes(4, random.nextInt(5) == 0 ? null : attachment);
                insert.setLong(5, txnId);
                insert.executeUpdate();
            }
            documents.add(document);
            upserts.add("documents/" + document);
            touchCustomer();
        }

        /** An update that leaves the TOASTed body unchanged. */
        private void touchDocument() throws SQLException {
            long document = documents.get(random.nextInt(documents.size()));
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE documents SET title = ?, version = version + 1, txn_id = ? WHERE id = ?")) {
                update.setString(1, "Doc " + document + " v" + seq + " ✍️");
                update.setLong(2, txnId);
                update.setLong(3, document);
                update.executeUpdate();
            }
            upserts.add("documents/" + document);
        }

        /** A primary key change of a row with a TOASTed column. */
        private void renumberDocument() throws SQLException {
            int index = random.nextInt(documents.size());
            long from = documents.get(index);
            long to = key();
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE documents SET id = ?, txn_id = ? WHERE id = ?")) {
                update.setLong(1, to);
                update.setLong(2, txnId);
                update.setLong(3, from);
                update.executeUpdate();
            }
            documents.set(index, to);
            deletes.add("documents/" + from);
            upserts.add("documents/" + to);
            touchCustomer();
        }

        private String jsonParameter() {
            return dialect == Dialect.POSTGRES ? "CAST(? AS JSONB)" : "?";
        }

        private void setTimestampTz(PreparedStatement statement, int index, OffsetDateTime value)
                throws SQLException {
            if (dialect == Dialect.POSTGRES) {
                statement.setObject(index, value);
            } else {
                // MariaDB TIMESTAMP: the session time zone is UTC (see the connection URL)
                statement.setObject(index, value.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime());
            }
        }

        private String meta() {
            return "{\"channel\": \"" + (random.nextBoolean() ? "web" : "app 📱") + "\", \"score\": "
                    + random.nextInt(100) + ".5, \"tags\": [\"a\", \"b" + random.nextInt(9) + "\"], \"gift\": "
                    + random.nextBoolean() + "}";
        }

        private BigDecimal money(int maxWhole) {
            return BigDecimal.valueOf(random.nextInt(maxWhole * 100), 2);
        }

        private LocalDateTime timestamp() {
            return LocalDateTime.of(2020 + random.nextInt(6), 1 + random.nextInt(12), 1 + random.nextInt(28),
                    random.nextInt(24), random.nextInt(60), random.nextInt(60), random.nextInt(1_000_000) * 1_000);
        }

        private OffsetDateTime timestampTz() {
            return OffsetDateTime.of(timestamp(), ZoneOffset.ofHours(random.nextInt(25) - 12));
        }

        /** Text that compresses poorly, so that PostgreSQL stores it out of line (TOAST), with some emoji. */
        private String longText(int length) {
            StringBuilder text = new StringBuilder(length);
            while (text.length() < length) {
                if (random.nextInt(200) == 0) {
                    text.append("🙂");
                } else {
                    text.append((char) ('!' + random.nextInt(90)));
                }
            }
            return new String(text.toString().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
        }
    }
}
