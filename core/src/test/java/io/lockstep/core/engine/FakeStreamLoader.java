package io.lockstep.core.engine;

import io.lockstep.core.client.LoadReply;
import io.lockstep.core.client.StreamLoader;
import io.lockstep.core.client.TransactionException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@link StreamLoader} that records every classic load and commits it in memory, or fails the next one when told.
 * Thread-safe (one lock).
 */
final class FakeStreamLoader implements StreamLoader {
    /** One recorded load: the target, label, body text and headers. */
    record Load(String database, String table, String label, String body, Map<String, String> properties) {
    }

    private final List<Load> loads = new ArrayList<>();
    private String failNextStatus;
    private String failNextMessage;

    @Override
    public synchronized LoadReply load(String database, String table, String label, byte[] body,
                                       Map<String, String> loadProperties) throws TransactionException {
        if (failNextStatus != null) {
            String status = failNextStatus;
            failNextStatus = null;
            throw new TransactionException("stream load into " + database + "." + table + " under label " + label
                    + " failed: " + failNextMessage, status);
        }
        loads.add(new Load(database, table, label, new String(body, StandardCharsets.UTF_8), Map.copyOf(loadProperties)));
        return new LoadReply(body.length, 1);
    }

    /** The next load fails with this server status and message. */
    synchronized void failNext(String status, String message) {
        this.failNextStatus = status;
        this.failNextMessage = message;
    }

    synchronized List<Load> loads() {
        return List.copyOf(loads);
    }

    @Override
    public void close() {
    }
}
