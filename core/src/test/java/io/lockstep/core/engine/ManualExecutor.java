package io.lockstep.core.engine;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executor;

/**
 * An {@link Executor} that only queues; the test runs the tasks when it wants, so "in flight" means "queued or
 * running". Thread-safe.
 */
final class ManualExecutor implements Executor {
    private final Deque<Runnable> queue = new ArrayDeque<>();

    @Override
    public synchronized void execute(Runnable task) {
        queue.addLast(task);
    }

    synchronized int pending() {
        return queue.size();
    }

    /** Runs the oldest queued task on the calling thread; false if none. */
    boolean runNext() {
        Runnable task;
        synchronized (this) {
            task = queue.pollFirst();
        }
        if (task == null) {
            return false;
        }
        task.run();
        return true;
    }

    /** Runs queued tasks until none is left (including tasks queued while running); returns how many ran. */
    int runAll() {
        int n = 0;
        while (runNext()) {
            n++;
        }
        return n;
    }

    /** Takes the oldest task without running it (to run it on another thread). */
    synchronized Runnable take() {
        return queue.pollFirst();
    }
}
