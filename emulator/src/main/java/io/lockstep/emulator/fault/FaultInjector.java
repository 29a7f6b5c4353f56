package io.lockstep.emulator.fault;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.Map;
import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;

/**
 * Per-op fault rules consulted by the server where a request is answered (the BE in redirect mode, the FE for
 * everything the FE answers itself, errors and idempotent replies included). A redirecting FE never consults
 * them, so a fault hits each logical request once.
 *
 * <p>Rules: a delay for every request of an op; holds (the next request blocks until released); the next N
 * requests answered with a chosen status or HTTP error, dropped mid-body, or executed with the reply dropped; the next N commits taking the
 * publish-timeout path. A forced failure only shapes the reply: it changes no transaction state.
 *
 * <p>Thread-safe: the monitor {@code this} guards all rules; delays and holds block outside it.
 */
@ThreadSafe
public final class FaultInjector {
    @GuardedBy("this")
    private final Map<FaultOp, Duration> delays = new EnumMap<>(FaultOp.class);
    @GuardedBy("this")
    private final Map<FaultOp, Deque<OpHold>> holds = new EnumMap<>(FaultOp.class);
    @GuardedBy("this")
    private final Map<FaultOp, Deque<FaultAction>> nextActions = new EnumMap<>(FaultOp.class);
    @GuardedBy("this")
    private int publishTimeouts;

    /** Delays every request of {@code op} by {@code delay} (real time); {@link Duration#ZERO} clears it. */
    public synchronized void delay(FaultOp op, Duration delay) {
        if (delay.isZero()) {
            delays.remove(op);
        } else {
            delays.put(op, delay);
        }
    }

    /** Holds the next request of {@code op} in flight until the returned hold is released. */
    public synchronized OpHold hold(FaultOp op) {
        OpHold h = new OpHold(op);
        holds.computeIfAbsent(op, o -> new ArrayDeque<>()).add(h);
        return h;
    }

    /** Answers the next {@code count} requests of {@code op} with {@code status} and {@code message} (HTTP 200). */
    public synchronized void failNext(FaultOp op, int count, String status, String message) {
        addNext(op, count, new FaultAction(FaultAction.Kind.FAIL_STATUS, status, message, 200));
    }

    /** Answers the next {@code count} requests of {@code op} with an HTTP error status and no JSON body. */
    public synchronized void failNextHttp(FaultOp op, int count, int httpStatus) {
        addNext(op, count, new FaultAction(FaultAction.Kind.FAIL_HTTP, null, null, httpStatus));
    }

    /** Drops the connection in the middle of the body of the next {@code count} requests of {@code op}. */
    public synchronized void dropConnectionMidBody(FaultOp op, int count) {
        addNext(op, count, new FaultAction(FaultAction.Kind.DROP_CONNECTION, null, null, 0));
    }

    /**
     * The next {@code count} requests of {@code op} execute normally (state changes as usual), then the connection
     * is closed instead of sending the reply: the client cannot tell whether the request was applied.
     */
    public synchronized void dropReplyNext(FaultOp op, int count) {
        addNext(op, count, new FaultAction(FaultAction.Kind.DROP_REPLY, null, null, 0));
    }

    /** The next {@code count} commits become COMMITTED but miss the publish wait (publish-timeout path). */
    public synchronized void publishTimeoutNext(int count) {
        publishTimeouts += count;
    }

    /** How many publish timeouts {@link #publishTimeoutNext} installed are not yet taken by a commit. */
    public synchronized int pendingPublishTimeouts() {
        return publishTimeouts;
    }

    /** How many forced actions (failNext, failNextHttp, drops) of {@code op} are still waiting for a request. */
    public synchronized int pending(FaultOp op) {
        Deque<FaultAction> queue = nextActions.get(op);
        return queue == null ? 0 : queue.size();
    }

    /** Runs after every {@link #clear()}, outside the lock (e.g. finishing publishes a publish timeout delayed). */
    private final java.util.List<Runnable> clearListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** @param listener run after every {@link #clear()} */
    public void addClearListener(Runnable listener) {
        clearListeners.add(listener);
    }

    /** Removes every rule and releases every pending hold; then runs the clear listeners. */
    public void clear() {
        Deque<OpHold> pending = new ArrayDeque<>();
        synchronized (this) {
            delays.clear();
            holds.values().forEach(pending::addAll);
            holds.clear();
            nextActions.clear();
            publishTimeouts = 0;
        }
        pending.forEach(OpHold::release);
        clearListeners.forEach(Runnable::run);
    }

    /**
     * Consulted once per executed request before its work starts: returns the forced action, if any.
     * Does not block.
     */
    public synchronized FaultAction next(FaultOp op) {
        Deque<FaultAction> queue = nextActions.get(op);
        return queue == null || queue.isEmpty() ? FaultAction.PROCEED : queue.poll();
    }

    /**
     * Applies the delay and hold of {@code op}, blocking the calling server thread; called while the request
     * is in flight (after it was admitted to its load context).
     */
    public void pause(FaultOp op) {
        Duration delay;
        OpHold hold;
        synchronized (this) {
            delay = delays.get(op);
            Deque<OpHold> q = holds.get(op);
            hold = q == null ? null : q.poll();
        }
        if (delay != null) {
            try {
                Thread.sleep(delay.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (hold != null) {
            hold.block();
        }
    }

    /** Takes one publish-timeout token; true when this commit must take the publish-timeout path. */
    public synchronized boolean takePublishTimeout() {
        if (publishTimeouts > 0) {
            publishTimeouts--;
            return true;
        }
        return false;
    }

    @GuardedBy("this")
    private void addNext(FaultOp op, int count, FaultAction action) {
        Deque<FaultAction> q = nextActions.computeIfAbsent(op, o -> new ArrayDeque<>());
        for (int i = 0; i < count; i++) {
            q.add(action);
        }
    }
}
