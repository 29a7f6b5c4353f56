package io.lockstep.core.buffer;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;

/**
 * Counts the bytes buffered in all regions of one sink subtask and applies backpressure
 * (docs/architecture.md#backpressure-why-the-task-thread-never-waits-forever).
 *
 * <p>Bytes are reserved <em>before</em> a row is appended ({@link #reserve}) and released when the chunk holding
 * them has been loaded or discarded ({@link #release}); the count is therefore exact and is 0 whenever every buffer
 * is empty. At the soft limit ({@code buffer-size}) the {@code onPressure} callback wakes the manager thread so it
 * flushes; at the hard limit (2 × {@code buffer-size}) {@link #reserve} blocks the caller until releases make room
 * or the deadline passes. A request larger than the hard limit fails at once, never waits.
 *
 * <p>Thread-safe: one {@link ReentrantLock} ({@code lock}) guards the count (written under it; volatile, so that the
 * read-only {@link #usedBytes()} and {@link #underPressure()} take no lock); {@code roomFreed} is signalled on every
 * release and on {@link #close}. The callback runs outside the lock. Blocking waits are bounded on
 * {@link System#nanoTime()} because they park a real thread.
 */
@ThreadSafe
public final class MemoryBudget {
    private final long softLimitBytes;
    private final long hardLimitBytes;
    private final Runnable onPressure;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition roomFreed = lock.newCondition();
    /** Written under {@code lock}; volatile: {@link #usedBytes()} and {@link #underPressure()} read it without. */
    @GuardedBy("lock")
    private volatile long usedBytes;
    /** Written under {@code lock}; volatile so that {@link #underPressure()} reads it without. */
    @GuardedBy("lock")
    private volatile int waitingThreads;
    @GuardedBy("lock")
    private RuntimeException closedCause;

    /**
     * @param softLimitBytes {@code buffer-size}, bytes, &gt; 0; reaching it calls {@code onPressure}
     * @param hardLimitBytes bytes, &gt;= {@code softLimitBytes}; reservations past it block
     * @param onPressure     called (outside the lock) when a reservation reaches the soft limit or has to wait
     */
    public MemoryBudget(long softLimitBytes, long hardLimitBytes, Runnable onPressure) {
        if (softLimitBytes <= 0 || hardLimitBytes < softLimitBytes) {
            throw new IllegalArgumentException("need 0 < softLimitBytes <= hardLimitBytes, got soft "
                    + softLimitBytes + ", hard " + hardLimitBytes);
        }
        this.softLimitBytes = softLimitBytes;
        this.hardLimitBytes = hardLimitBytes;
        this.onPressure = onPressure;
    }

    /**
     * Reserves {@code bytes}, waiting while the hard limit would be passed.
     *
     * @param bytes      bytes to reserve, &gt;= 0
     * @param maxBlockMs longest wait for room, ms
     * @param what       names the request in error messages, e.g. "row for test.orders (partition 3)"
     * @throws BufferExhaustedException if {@code bytes} exceeds the hard limit (at once), if no room appeared
     *                                  within {@code maxBlockMs}, or if the budget is closed; nothing is reserved
     * @throws InterruptedException     if interrupted while waiting; nothing is reserved
     */
    public void reserve(long bytes, long maxBlockMs, String what) throws InterruptedException {
        reserve(bytes, maxBlockMs, () -> what);
    }

    /**
     * {@link #reserve(long, long, String)} with the request's name built only if an error needs it: the task thread
     * reserves once per row, and building the name costs more than the reservation.
     *
     * @param what supplies the name of the request for error messages
     * @throws BufferExhaustedException as {@link #reserve(long, long, String)}
     * @throws InterruptedException     as {@link #reserve(long, long, String)}
     */
    public void reserve(long bytes, long maxBlockMs, Supplier<String> what) throws InterruptedException {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot reserve " + bytes + " bytes");
        }
        if (bytes > hardLimitBytes) {
            throw new BufferExhaustedException(what.get() + " needs " + bytes
                    + " bytes, more than the hard buffer limit of "
                    + hardLimitBytes + " bytes (2 x buffer-size " + softLimitBytes + "); it can never fit");
        }
        boolean pressure;
        lock.lock();
        try {
            failIfClosed(what);
            if (usedBytes + bytes > hardLimitBytes) {
                waitForRoom(bytes, maxBlockMs, what);
            }
            pressure = addLocked(bytes);
        } finally {
            lock.unlock();
        }
        if (pressure) {
            onPressure.run();
        }
    }

    /** Under the lock: adds {@code bytes} to the used bytes; true if that reached the soft limit from below. */
    private boolean addLocked(long bytes) {
        long before = usedBytes;
        usedBytes += bytes;
        return before < softLimitBytes && usedBytes >= softLimitBytes;
    }

    /**
     * Reserves {@code bytes} if that needs no wait: the budget is open and the hard limit is not passed. Like
     * {@link #reserve(long, long, Supplier)} otherwise (calls {@code onPressure} on reaching the soft limit), but
     * builds no message and never blocks: on false nothing is reserved, and the caller calls {@link #reserve} to wait
     * or fail with its message. The task thread reserves once per row.
     *
     * @param bytes bytes to reserve, &gt;= 0
     * @return true if reserved
     */
    public boolean tryReserve(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot reserve " + bytes + " bytes");
        }
        boolean pressure;
        lock.lock();
        try {
            if (closedCause != null || usedBytes + bytes > hardLimitBytes) {
                return false;
            }
            pressure = addLocked(bytes);
        } finally {
            lock.unlock();
        }
        if (pressure) {
            onPressure.run();
        }
        return true;
    }

    @GuardedBy("lock")
    private void waitForRoom(long bytes, long maxBlockMs, Supplier<String> what) throws InterruptedException {
        long remainingNs = TimeUnit.MILLISECONDS.toNanos(maxBlockMs);
        waitingThreads++;
        try {
            while (usedBytes + bytes > hardLimitBytes) {
                if (remainingNs <= 0) {
                    throw new BufferExhaustedException(what.get() + " waited " + maxBlockMs + " ms for " + bytes
                            + " bytes of buffer: " + usedBytes + " of the hard limit " + hardLimitBytes
                            + " bytes (2 x buffer-size " + softLimitBytes + ") are in use and loads did not drain; "
                            + "check that the server accepts loads and that source transactions end");
                }
                lock.unlock();
                try {
                    onPressure.run();
                } finally {
                    lock.lock();
                }
                failIfClosed(what);
                if (usedBytes + bytes <= hardLimitBytes) {
                    break;
                }
                remainingNs = roomFreed.awaitNanos(remainingNs);
                failIfClosed(what);
            }
        } finally {
            waitingThreads--;
        }
    }

    @GuardedBy("lock")
    private void failIfClosed(Supplier<String> what) {
        if (closedCause != null) {
            throw new BufferExhaustedException(what.get() + ": the buffer is closed: " + closedCause.getMessage(),
                    closedCause);
        }
    }

    /**
     * Returns bytes reserved earlier and wakes blocked callers.
     *
     * @throws IllegalStateException if more bytes are released than are reserved (an accounting bug); the count is
     *                               left unchanged
     */
    public void release(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot release " + bytes + " bytes");
        }
        lock.lock();
        try {
            if (bytes > usedBytes) {
                throw new IllegalStateException("releasing " + bytes + " bytes but only " + usedBytes
                        + " are reserved");
            }
            usedBytes -= bytes;
            roomFreed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Fails every waiting and future reservation with {@code cause} (the engine failed or is closing). Releases still
     * work, so the count can return to 0. The first cause is kept.
     */
    public void close(RuntimeException cause) {
        lock.lock();
        try {
            if (closedCause == null) {
                closedCause = cause;
            }
            roomFreed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Bytes reserved now (a volatile read, no lock: the task thread asks at every transaction end). */
    public long usedBytes() {
        return usedBytes;
    }

    /**
     * True at or above the soft limit, or while a caller waits for room: the manager should flush now. Two volatile
     * reads, no lock (the task thread asks at every transaction end); like any answer here, it may change at once.
     */
    public boolean underPressure() {
        return usedBytes >= softLimitBytes || waitingThreads > 0;
    }

    /** How many threads wait in {@link #reserve} now. */
    public int waitingThreads() {
        lock.lock();
        try {
            return waitingThreads;
        } finally {
            lock.unlock();
        }
    }

    /** The soft limit ({@code buffer-size}), bytes. */
    public long softLimitBytes() {
        return softLimitBytes;
    }

    /** The hard limit, bytes. */
    public long hardLimitBytes() {
        return hardLimitBytes;
    }
}
