package io.lockstep.emulator.be;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import javax.annotation.concurrent.ThreadSafe;

/**
 * The BE's live load contexts, keyed by label as StarRocks' {@code StreamContextMgr} keys them (so the BE checks the
 * database of each request against the context's, docs/protocol.md#status-values "request db X transaction db Y not
 * match"). Volatile: {@link #clear()} models a BE restart.
 */
@ThreadSafe
public final class LoadContextRegistry {
    private final ConcurrentMap<String, LoadContext> contexts = new ConcurrentHashMap<>();

    /** Registers a context; returns false (and registers nothing) when the label already has one. */
    public boolean add(LoadContext context) {
        return contexts.putIfAbsent(context.label(), context) == null;
    }

    /** The live context of a label, if any. */
    public Optional<LoadContext> get(String label) {
        return Optional.ofNullable(contexts.get(label));
    }

    /** Removes the context of a label if it still belongs to that transaction. */
    public void remove(String label, long txnId) {
        contexts.computeIfPresent(label, (l, c) -> c.txnId() == txnId ? null : c);
    }

    /** Removes the context of a transaction wherever it is registered. */
    public void removeTxn(long txnId) {
        contexts.values().removeIf(c -> c.txnId() == txnId);
    }

    public List<LoadContext> all() {
        return List.copyOf(contexts.values());
    }

    /** Drops every context (BE restart). */
    public void clear() {
        contexts.clear();
    }
}
