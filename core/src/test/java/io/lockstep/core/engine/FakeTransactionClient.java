package io.lockstep.core.engine;

import io.lockstep.core.client.LabelState;
import io.lockstep.core.client.LoadReply;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A {@link TransactionClient} for tests: records every call in order, keeps a per-label state like the server
 * would (loaded bodies become visible only on commit), fails chosen calls and can hold calls on a latch.
 * Thread-safe.
 */
final class FakeTransactionClient implements TransactionClient {

    /** One recorded call. {@code body} is the load body as text, else null. */
    record Call(String op, String database, String table, String label, String body, Map<String, String> properties) {
        @Override
        public String toString() {
            return op + "(" + label + (table == null ? "" : ", " + table) + ")";
        }
    }

    private record Failure(Predicate<Call> when, Exception error) {
    }

    private record Hold(Predicate<Call> when, CountDownLatch entered, CountDownLatch release) {
    }

    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final List<Failure> failures = new CopyOnWriteArrayList<>();
    private final List<Hold> holds = new CopyOnWriteArrayList<>();
    private final Map<String, LabelState> states = new ConcurrentHashMap<>();
    /** label -> loaded (table, body) pairs, moved to {@link #committed} on commit. */
    private final Map<String, List<String[]>> pending = new ConcurrentHashMap<>();
    private final List<String[]> committed = new CopyOnWriteArrayList<>();
    /** (label, table) pairs with a load running now, and every overlap seen (the server: TXN_IN_PROCESSING). */
    private final java.util.Set<String> loadsRunning = ConcurrentHashMap.newKeySet();
    private final List<String> overlappingLoads = new CopyOnWriteArrayList<>();

    /** Makes the first future call matching {@code when} fail with {@code status}, once. */
    void failOnce(Predicate<Call> when, String status, String message) {
        failures.add(new Failure(when, new TransactionException(message, status)));
    }

    /** Makes the first future call matching {@code when} throw {@code error} (an unexpected runtime failure), once. */
    void crashOnce(Predicate<Call> when, RuntimeException error) {
        failures.add(new Failure(when, error));
    }

    /**
     * Makes the first future call matching {@code when} wait until {@link CountDownLatch#countDown()} on the returned
     * release latch; {@code entered} counts down when the call starts waiting.
     */
    CountDownLatch[] holdOnce(Predicate<Call> when) {
        Hold hold = new Hold(when, new CountDownLatch(1), new CountDownLatch(1));
        holds.add(hold);
        return new CountDownLatch[] {hold.entered(), hold.release()};
    }

    static Predicate<Call> op(String op) {
        return c -> c.op().equals(op);
    }

    static Predicate<Call> load(String table) {
        return c -> c.op().equals("load") && c.table().equals(table);
    }

    @Override
    public long begin(TransactionRef txn, int timeoutSeconds) throws TransactionException {
        Call call = record("begin", txn, null, null, null);
        if (states.containsKey(txn.label())) {
            throw new TransactionException("Label [" + txn.label() + "] has already been used.",
                    "LABEL_ALREADY_EXISTS");
        }
        states.put(txn.label(), LabelState.PREPARE);
        pending.put(txn.label(), new CopyOnWriteArrayList<>());
        intercept(call);
        return -1;
    }

    @Override
    public LoadReply load(TransactionRef txn, String table, byte[] body, Map<String, String> loadProperties)
            throws TransactionException {
        String text = new String(body, StandardCharsets.UTF_8);
        Call call = record("load", txn, table, text, loadProperties);
        String running = txn.label() + "/" + table;
        if (!loadsRunning.add(running)) {
            overlappingLoads.add(running);
            throw new TransactionException("Transaction is in processing", "TXN_IN_PROCESSING");
        }
        try {
            return loadNow(call, txn, table, body, text);
        } finally {
            loadsRunning.remove(running);
        }
    }

    private LoadReply loadNow(Call call, TransactionRef txn, String table, byte[] body, String text)
            throws TransactionException {
        intercept(call);
        if (states.get(txn.label()) != LabelState.PREPARE) {
            throw new TransactionException("stream load task " + txn.label() + " does not exist or is not open",
                    "FAILED");
        }
        pending.get(txn.label()).add(new String[] {table, text});
        return new LoadReply(body.length, 1);
    }

    @Override
    public void prepare(TransactionRef txn) throws TransactionException {
        intercept(record("prepare", txn, null, null, null));
        states.put(txn.label(), LabelState.PREPARED);
    }

    @Override
    public void commit(TransactionRef txn) throws TransactionException {
        intercept(record("commit", txn, null, null, null));
        LabelState state = states.get(txn.label());
        if (state != LabelState.PREPARE && state != LabelState.PREPARED) {
            throw new TransactionException("cannot commit " + txn + " in state " + state, "FAILED");
        }
        states.put(txn.label(), LabelState.VISIBLE);
        for (String[] load : pending.remove(txn.label())) {
            committed.add(new String[] {load[0], load[1], txn.label()});
        }
    }

    @Override
    public void rollback(TransactionRef txn) throws TransactionException {
        intercept(record("rollback", txn, null, null, null));
        states.put(txn.label(), LabelState.ABORTED);
        pending.remove(txn.label());
    }

    @Override
    public LabelState labelState(String database, String label) {
        calls.add(new Call("labelState", database, null, label, null, null));
        return states.getOrDefault(label, LabelState.UNKNOWN);
    }

    @Override
    public void cancel(String database, String table, String label) throws TransactionException {
        calls.add(new Call("cancel", database, table, label, null, null));
        states.put(label, LabelState.ABORTED);
    }

    @Override
    public void close() {
    }

    private Call record(String op, TransactionRef txn, String table, String body, Map<String, String> props) {
        Call call = new Call(op, txn.database(), table != null ? table : txn.table(), txn.label(), body, props);
        calls.add(call);
        return call;
    }

    private void intercept(Call call) throws TransactionException {
        for (Hold hold : holds) {
            if (hold.when().test(call) && holds.remove(hold)) {
                hold.entered().countDown();
                try {
                    if (!hold.release().await(30, TimeUnit.SECONDS)) {
                        throw new TransactionException("test hold never released: " + call, null);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TransactionException("interrupted while held: " + call, null, e);
                }
            }
        }
        for (Failure failure : failures) {
            if (failure.when().test(call) && failures.remove(failure)) {
                if (failure.error() instanceof RuntimeException e) {
                    throw e;
                }
                throw (TransactionException) failure.error();
            }
        }
    }

    /** Loads that overlapped another load of the same (label, table). */
    List<String> overlappingLoads() {
        return List.copyOf(overlappingLoads);
    }

    List<Call> calls() {
        return List.copyOf(calls);
    }

    /** Calls of one operation, in order. */
    List<Call> calls(String op) {
        List<Call> result = new ArrayList<>();
        for (Call call : calls) {
            if (call.op().equals(op)) {
                result.add(call);
            }
        }
        return result;
    }

    /** Every committed (table, body, label) triple, in commit order. */
    List<String[]> committedLoads() {
        return List.copyOf(committed);
    }

    /** Bodies committed into {@code table}, concatenated as their rows in order (outer brackets removed). */
    List<String> committedRows(String table) {
        List<String> rows = new ArrayList<>();
        for (String[] load : committed) {
            if (load[0].equals(table)) {
                rows.addAll(splitRows(load[1]));
            }
        }
        return rows;
    }

    LabelState state(String label) {
        return states.getOrDefault(label, LabelState.UNKNOWN);
    }

    /** Splits {@code [ {..},{..} ]} bodies written by the engine (rows here hold no nested braces). */
    static List<String> splitRows(String body) {
        List<String> rows = new ArrayList<>();
        String inner = body.substring(1, body.length() - 1);
        int depth = 0;
        int start = 0;
        for (int i = 0; i < inner.length(); i++) {
            char c = inner.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth--;
            } else if (c == ',' && depth == 0) {
                rows.add(inner.substring(start, i));
                start = i + 1;
            }
        }
        if (!inner.isEmpty()) {
            rows.add(inner.substring(start));
        }
        return rows;
    }
}
