package io.lockstep.e2e.workload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What each source transaction of the workload wrote, key by key, and the all-or-nothing check of a target snapshot.
 *
 * <p>Transaction ids are {@code session * 1_000_000_000 + seq}, {@code seq} counting from 1 in each session. Each
 * session owns its keys (no other session writes them), so a key's writes are ordered by {@code seq}. Every
 * transaction upserts at least one row and writes its id into every row it upserts.
 *
 * <p>The check: a target that makes whole source transactions visible in commit order shows, for each session, all
 * of its transactions up to some {@code seq} m and none after it; m is the largest {@code seq} of that session that
 * any row shows. Every key of the session must then hold the id of its last write with {@code seq <= m}, or be absent
 * when that write deleted it (or there is none). A key that differs means a transaction is partly visible: it is a
 * violation, reported with the transaction ids involved.
 *
 * <p>Thread-safe: sessions record from their threads, a reader checks from another; all state is guarded by
 * {@code this}.
 */
public final class TxnLedger {

    /** Session id multiplier in transaction ids. */
    public static final long SESSION_FACTOR = 1_000_000_000L;

    /** One write to a key: the transaction id, and whether it deleted the row. */
    private record Write(long txnId, boolean deleted) {
    }

    /** Per {@code table + '/' + key}: the writes in session order. Guarded by {@code this}. */
    private final Map<String, List<Write>> history = new HashMap<>();
    /** Per {@code table + '/' + key}: the owning session. Guarded by {@code this}. */
    private final Map<String, Integer> owner = new HashMap<>();
    /** Transactions recorded, all sessions. Guarded by {@code this}. */
    private long transactions;

    /** @return the transaction id of a session's {@code seq}-th transaction */
    public static long txnId(int session, long seq) {
        return session * SESSION_FACTOR + seq;
    }

    /**
     * Records a transaction's writes; call it before the transaction commits (a reader that sees the transaction
     * then always finds it here).
     *
     * @param txnId the transaction id
     * @param upserts keys the transaction inserted or updated, as {@code table/key}
     * @param deletes keys it deleted (a primary key change deletes the old key and upserts the new one)
     */
    public synchronized void record(long txnId, List<String> upserts, List<String> deletes) {
        int session = (int) (txnId / SESSION_FACTOR);
        for (String key : deletes) {
            add(key, new Write(txnId, true), session);
        }
        for (String key : upserts) {
            add(key, new Write(txnId, false), session);
        }
        transactions++;
    }

    private void add(String key, Write write, int session) {
        Integer previous = owner.putIfAbsent(key, session);
        if (previous != null && previous != session) {
            throw new IllegalStateException("key " + key + " written by sessions " + previous + " and " + session);
        }
        history.computeIfAbsent(key, k -> new ArrayList<>()).add(write);
    }

    /** @return the transactions recorded so far */
    public synchronized long transactions() {
        return transactions;
    }

    /**
     * @param visible per {@code table/key}, the {@code txn_id} the target shows (one consistent snapshot)
     * @return the ids of the transactions that are partly visible in it (empty when it is all-or-nothing)
     */
    public synchronized TreeSet<Long> partlyVisible(Map<String, Long> visible) {
        return check(visible, null);
    }

    /**
     * @param visible as for {@link #partlyVisible}
     * @return up to 10 mismatching keys with the expected and the visible transaction id, for a failure message
     */
    public synchronized List<String> mismatches(Map<String, Long> visible) {
        List<String> lines = new ArrayList<>();
        check(visible, lines);
        return lines;
    }

    private TreeSet<Long> check(Map<String, Long> visible, List<String> lines) {
        Map<Integer, Long> horizon = new HashMap<>();
        TreeSet<Long> broken = new TreeSet<>();
        for (Map.Entry<String, Long> row : visible.entrySet()) {
            long id = row.getValue();
            horizon.merge((int) (id / SESSION_FACTOR), id % SESSION_FACTOR, Math::max);
            if (!history.containsKey(row.getKey())) {
                broken.add(id); // a row the workload never wrote
            }
        }
        for (Map.Entry<String, List<Write>> entry : history.entrySet()) {
            int session = owner.get(entry.getKey());
            long m = horizon.getOrDefault(session, 0L);
            Write last = null;
            for (Write write : entry.getValue()) {
                if (write.txnId() % SESSION_FACTOR <= m) {
                    last = write;
                }
            }
            Long expected = last == null || last.deleted() ? null : last.txnId();
            Long actual = visible.get(entry.getKey());
            if (expected == null ? actual != null : !expected.equals(actual)) {
                if (lines != null && lines.size() < 10) {
                    lines.add(entry.getKey() + " expected " + expected + " visible " + actual + " (horizon "
                            + txnId(session, m) + ")");
                }
                if (actual != null) {
                    broken.add(actual);
                }
                broken.add(txnId(session, m));
            }
        }
        return broken;
    }
}
