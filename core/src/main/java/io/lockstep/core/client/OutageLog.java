package io.lockstep.core.client;

import io.lockstep.core.time.Ticker;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the retries of one target during an outage into two log lines instead of one per retry: a WARN when the first
 * retriable failure after a healthy period occurs (what failed, the failure cut to {@value #MAX_FAILURE_CHARS}
 * characters), DEBUG lines for the retries that follow, and a WARN when the target answers again, with how long the
 * outage lasted and the retries (and the engine failures: job restarts) in between.
 *
 * <p>One instance per target (its load URLs) in this JVM ({@link #of}), shared by every client of it, so an outage
 * spans the job's restarts (each restart makes new clients). Thread-safe: the clients of several subtasks report to
 * one instance; its state is guarded by {@code this}.
 */
@ThreadSafe
public final class OutageLog {
    private static final Logger LOG = LoggerFactory.getLogger(OutageLog.class);
    /** Longest failure text in the outage's first line; the retries' DEBUG lines carry it whole. */
    static final int MAX_FAILURE_CHARS = 200;
    private static final Map<String, OutageLog> BY_TARGET = new ConcurrentHashMap<>();

    private final String target;
    private final Ticker ticker;
    @GuardedBy("this")
    private boolean ongoing;
    @GuardedBy("this")
    private long startMs;
    @GuardedBy("this")
    private long retries;
    @GuardedBy("this")
    private long engineFailures;

    /**
     * @param target the target's name in the lines, e.g. its load URLs
     * @param ticker the clock the outage's duration is measured on
     */
    OutageLog(String target, Ticker ticker) {
        this.target = target;
        this.ticker = ticker;
    }

    /** @return the shared instance of {@code target} (its load URLs) in this JVM, on the system clock */
    static OutageLog of(LoadUrls target) {
        return BY_TARGET.computeIfAbsent(target.toString(), t -> new OutageLog(t, Ticker.system()));
    }

    /**
     * @param failure an engine's failure
     * @return whether a target is in an outage now and {@code failure} is an unsettled call to it (a
     *     {@link TransactionException} without a classified reply: retries used up, an unknown outcome); such a failure
     *     is then counted in that outage's last line ({@link #engineFailed}) and needs no line of its own
     */
    public static boolean countedInOngoingOutage(Throwable failure) {
        for (OutageLog outage : BY_TARGET.values()) {
            if (outage.engineFailedIfOngoing(failure)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param failure an engine's failure
     * @return whether this target is in an outage and {@code failure} is an unsettled call (then counted in the
     *     outage's last line)
     */
    synchronized boolean engineFailedIfOngoing(Throwable failure) {
        if (!ongoing || !unsettled(failure)) {
            return false;
        }
        engineFailures++;
        return true;
    }

    /** @return whether the chain holds a {@link TransactionException} without a classified reply */
    private static boolean unsettled(Throwable failure) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable t = failure; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            if (t instanceof TransactionException te && te.failureClass() == null) {
                return true;
            }
        }
        return false;
    }

    /**
     * A retriable failure: the outage's first line at WARN when none is ongoing, else a DEBUG line.
     *
     * @param operation what failed, e.g. "commit of label L (db D, multi-table)"
     * @param failureClass its class
     * @param failure what went wrong
     * @param backoffMs the wait before the next attempt, ms
     */
    synchronized void retrying(String operation, FailureClass failureClass, String failure, long backoffMs) {
        if (!ongoing) {
            ongoing = true;
            startMs = ticker.nowMs();
            retries = 1;
            engineFailures = 0;
            LOG.warn("{} is failing ({}): {}: {}; retrying (one line when it answers again)", target, failureClass,
                    operation, shorten(failure));
        } else {
            retries++;
            LOG.debug("{}: {}: retry in {} ms after {}: {}", target, operation, backoffMs, failureClass, failure);
        }
    }

    /** A reply the operation accepted: ends an ongoing outage with its WARN line. */
    synchronized void answered() {
        if (!ongoing) {
            return;
        }
        ongoing = false;
        LOG.warn("{} answers again after {} s: {} retries{} in between", target,
                String.format(Locale.ROOT, "%.1f", (ticker.nowMs() - startMs) / 1000.0), retries,
                engineFailures > 0 ? " and " + engineFailures + " engine failure(s) (job restarts)" : "");
    }

    /** @return whether an outage is ongoing */
    synchronized boolean ongoing() {
        return ongoing;
    }

    private static String shorten(String failure) {
        String text = failure == null ? "" : failure;
        return text.length() <= MAX_FAILURE_CHARS ? text : text.substring(0, MAX_FAILURE_CHARS) + "...";
    }
}
