package io.lockstep.core.engine;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Requests other threads hand to the manager thread, each with a future the manager completes: a flush waiting for
 * its commit, a commit or abort of given labels. Any thread {@link #submit}s into a concurrent queue; the manager
 * thread moves them to its own pending list and completes them there, so a request is completed exactly once, by the
 * manager thread (or by the closing thread after the manager thread ended).
 *
 * @param <R> the request type
 */
final class PendingRequests<R extends PendingRequests.Request> {
    /** A request carrying the future its submitter waits on. */
    interface Request {
        CompletableFuture<?> done();
    }

    /** Any thread adds, the manager thread polls. */
    private final Queue<R> submitted = new ConcurrentLinkedQueue<>();
    /** Manager thread only. */
    private final List<R> pending = new ArrayList<>();

    /** Any thread: hands {@code request} to the manager thread. */
    void submit(R request) {
        submitted.add(request);
    }

    /** Manager thread: takes what was submitted since the last call; returns every pending request, oldest first. */
    List<R> pending() {
        for (R r; (r = submitted.poll()) != null; ) {
            pending.add(r);
        }
        return pending;
    }

    /** Manager thread: removes the pending requests that {@code ready} accepts and hands each to {@code complete}. */
    void completeWhere(Predicate<R> ready, Consumer<R> complete) {
        for (Iterator<R> it = pending().iterator(); it.hasNext(); ) {
            R r = it.next();
            if (ready.test(r)) {
                it.remove();
                complete.accept(r);
            }
        }
    }

    /** Manager thread: takes the oldest pending request, or null. */
    R poll() {
        List<R> all = pending();
        return all.isEmpty() ? null : all.remove(0);
    }

    /** Manager thread (or the closing thread): fails every submitted and pending request with {@code error}. */
    void failAll(Throwable error) {
        for (R r : pending()) {
            r.done().completeExceptionally(error);
        }
        pending.clear();
    }
}
