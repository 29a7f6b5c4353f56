package io.lockstep.bench.jmh;

import io.lockstep.core.client.LabelState;
import io.lockstep.core.client.LoadReply;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.format.LoadBody;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link TransactionClient} that accepts everything and sends nothing, so a benchmark of the engine measures the
 * engine (buffering, freezing, body building), not HTTP. Counts the body bytes it was handed.
 */
public final class DiscardingTransactionClient implements TransactionClient {
    private final AtomicLong txnIds = new AtomicLong();
    private final AtomicLong loadedBytes = new AtomicLong();

    @Override
    public long begin(TransactionRef txn, int timeoutSeconds) {
        return txnIds.incrementAndGet();
    }

    @Override
    public LoadReply load(TransactionRef txn, String table, byte[] body, Map<String, String> loadProperties) {
        loadedBytes.addAndGet(body.length);
        return new LoadReply(body.length, 1);
    }

    /** Writes the body the way the HTTP clients do (segment by segment) into a stream that keeps nothing. */
    @Override
    public LoadReply load(TransactionRef txn, String table, LoadBody body, Map<String, String> loadProperties) {
        try {
            body.writeTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        loadedBytes.addAndGet(body.contentLength());
        return new LoadReply(body.contentLength(), 1);
    }

    @Override
    public void prepare(TransactionRef txn) {
        // accepted
    }

    @Override
    public void commit(TransactionRef txn) {
        // accepted
    }

    @Override
    public void rollback(TransactionRef txn) {
        // accepted
    }

    @Override
    public LabelState labelState(String database, String label) {
        return LabelState.VISIBLE;
    }

    @Override
    public void cancel(String database, String table, String label) {
        // accepted
    }

    @Override
    public void close() {
        // nothing open
    }

    /** Body bytes received by {@link #load}. */
    public long loadedBytes() {
        return loadedBytes.get();
    }
}
