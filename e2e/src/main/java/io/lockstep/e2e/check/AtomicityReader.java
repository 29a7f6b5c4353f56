package io.lockstep.e2e.check;

import io.lockstep.e2e.workload.OltpSchema;
import io.lockstep.e2e.workload.OltpSchema.Table;
import io.lockstep.e2e.workload.TxnLedger;
import io.lockstep.emulator.StarRocksEmulator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A reader of the target that takes a snapshot of every table's {@code (key, txn_id)} in one query (one consistent
 * read of the emulator), pausing 100 ms between snapshots, and checks each one with {@link TxnLedger#partlyVisible}:
 * a source transaction whose id is present in some of the tables it touched and absent from others is a violation.
 *
 * <p>Each snapshot is also checked against the ones before it: per key, the {@code txn_id} only grows (each session
 * owns its keys and its transaction ids grow), and a key that was seen and then seen deleted never comes back (the
 * workload never writes a key again after deleting it). A key that goes back means an older source transaction was
 * applied again over a later one: a {@link #versionRegressions() version regression}.
 *
 * <p>Threads: {@link #start()} runs the reader on its own daemon thread; the counters and {@link #brokenTransactions()}
 * may be read from any thread ({@code brokenTransactions} is guarded by itself); {@link #stop()} joins the thread.
 * The per-key history is guarded by {@code this} ({@link #checkOnce()} may also be called from another thread).
 */
public final class AtomicityReader {

    private static final long PAUSE_MS = 100;

    private final StarRocksEmulator target;
    private final TxnLedger ledger;
    private final String sql;
    private final AtomicLong snapshots = new AtomicLong();
    private final AtomicLong violations = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean();
    /** The first partly visible snapshot, described (keys with expected and visible transaction ids). */
    private final AtomicReference<String> firstViolation = new AtomicReference<>();
    /** Guarded by itself. */
    private final TreeSet<Long> brokenTransactions = new TreeSet<>();
    /** Per {@code table/key}: the highest {@code txn_id} seen. Guarded by {@code this}. */
    private final Map<String, Long> highest = new HashMap<>();
    /** Keys seen and then seen deleted. Guarded by {@code this}. */
    private final Set<String> deleted = new HashSet<>();
    /** Keys seen going back, one line each: key, snapshot, the txn_id before and after. Guarded by {@code this}. */
    private final List<String> regressions = new ArrayList<>();
    private Thread thread;

    /**
     * @param target the emulator the job loads into
     * @param ledger the workload's record of what each transaction wrote
     */
    public AtomicityReader(StarRocksEmulator target, TxnLedger ledger) {
        this.target = target;
        this.ledger = ledger;
        List<String> selects = new ArrayList<>();
        for (Table table : OltpSchema.TABLES) {
            String key = String.join(" || ':' || ", table.keys().stream()
                    .map(k -> "CAST(" + k + " AS VARCHAR)").toList());
            selects.add("SELECT '" + table.name() + "/' || " + key + " AS k, txn_id FROM "
                    + OltpSchema.TARGET_DATABASE + "." + table.name());
        }
        this.sql = String.join(" UNION ALL ", selects);
    }

    /** Starts the reader thread. */
    public void start() {
        running.set(true);
        thread = new Thread(this::loop, "atomicity-reader");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        while (running.get()) {
            checkOnce();
            try {
                Thread.sleep(PAUSE_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Takes one snapshot and checks it; returns the partly visible transactions in it. */
    public TreeSet<Long> checkOnce() {
        Map<String, Long> visible = new HashMap<>();
        for (List<Object> row : target.query(sql).rows()) {
            visible.put((String) row.get(0), ((Number) row.get(1)).longValue());
        }
        TreeSet<Long> broken = ledger.partlyVisible(visible);
        long snapshot = snapshots.incrementAndGet();
        checkVersions(visible, snapshot);
        if (!broken.isEmpty()) {
            if (violations.incrementAndGet() == 1) {
                firstViolation.compareAndSet(null, "snapshot " + snapshots.get() + ": " + ledger.mismatches(visible));
            }
            synchronized (brokenTransactions) {
                brokenTransactions.addAll(broken);
            }
        }
        return broken;
    }

    private synchronized void checkVersions(Map<String, Long> visible, long snapshot) {
        for (Map.Entry<String, Long> row : visible.entrySet()) {
            String key = row.getKey();
            long txnId = row.getValue();
            Long before = highest.get(key);
            if (deleted.remove(key)) {
                regressions.add(key + " came back in snapshot " + snapshot + " after its delete (txn_id " + before
                        + " before the delete, " + txnId + " now)");
            } else if (before != null && txnId < before) {
                regressions.add(key + " went back in snapshot " + snapshot + " from txn_id " + before + " to "
                        + txnId);
            }
            if (before == null || txnId > before) {
                highest.put(key, txnId);
            }
        }
        for (String key : highest.keySet()) {
            if (!visible.containsKey(key)) {
                deleted.add(key);
            }
        }
    }

    /**
     * @return the keys seen going back so far, one line each (key, snapshot, {@code txn_id} before and after; a key
     *     that came back after its delete): empty when every key only moved forward
     */
    public synchronized List<String> versionRegressions() {
        return List.copyOf(regressions);
    }

    /** @return keys whose version was followed so far */
    public synchronized int keysFollowed() {
        return highest.size();
    }

    /** Stops the reader and waits for its thread. */
    public void stop() throws InterruptedException {
        running.set(false);
        if (thread != null) {
            thread.join();
        }
    }

    /** @return snapshots checked so far */
    public long snapshots() {
        return snapshots.get();
    }

    /** @return snapshots in which some transaction was partly visible */
    public long violations() {
        return violations.get();
    }

    /** @return the first partly visible snapshot's mismatching keys, or {@code null} when there was none */
    public String firstViolation() {
        return firstViolation.get();
    }

    /** @return the ids of the transactions seen partly visible (a copy) */
    public TreeSet<Long> brokenTransactions() {
        synchronized (brokenTransactions) {
            return new TreeSet<>(brokenTransactions);
        }
    }
}
