package io.lockstep.app.demo;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;

/**
 * Reads a snapshot of the target's shop tables every {@code periodMs} (fixed delay: a slow read delays the next
 * one instead of piling up) and checks {@link ShopInvariants} on each. Once the expected final state is known
 * ({@link #expectFinal}), it also compares each snapshot with it and opens {@link #awaitConverged} when they are
 * equal.
 *
 * <p>Threads: one daemon thread reads and checks; the other methods are called from any thread.
 */
@ThreadSafe
public final class SnapshotChecker implements AutoCloseable {
    /** Violations described in full at most (all are counted). */
    public static final int MAX_DESCRIBED = 10;

    private final DemoTarget target;
    private final ScheduledExecutorService reader;
    private final AtomicLong snapshots = new AtomicLong();
    private final AtomicLong readErrors = new AtomicLong();
    private final AtomicReference<String> firstReadError = new AtomicReference<>();
    private final AtomicReference<ShopState> lastSnapshot = new AtomicReference<>();
    private final AtomicReference<ShopState> expectedFinal = new AtomicReference<>();
    private final CountDownLatch converged = new CountDownLatch(1);
    @GuardedBy("this")
    private final Map<String, Long> violationsByInvariant = new LinkedHashMap<>();
    @GuardedBy("this")
    private final List<String> described = new ArrayList<>();

    /**
     * Starts reading at once.
     *
     * @param target the started target
     * @param periodMs pause between the end of one read and the start of the next, in ms (&gt; 0)
     */
    public SnapshotChecker(DemoTarget target, long periodMs) {
        this.target = target;
        for (String name : ShopInvariants.NAMES) {
            violationsByInvariant.put(name, 0L);
        }
        this.reader = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "lockstep-demo-snapshots");
            thread.setDaemon(true);
            return thread;
        });
        reader.scheduleWithFixedDelay(this::readOnce, 0, periodMs, TimeUnit.MILLISECONDS);
    }

    /** Reader thread: one snapshot, checked; a failed read is counted, never ends the schedule. */
    private void readOnce() {
        ShopState snapshot;
        try {
            snapshot = target.snapshot();
        } catch (RuntimeException e) {
            readErrors.incrementAndGet();
            firstReadError.compareAndSet(null, e.getMessage());
            return;
        }
        long number = snapshots.incrementAndGet();
        List<ShopInvariants.Violation> violations = ShopInvariants.check(snapshot);
        if (!violations.isEmpty()) {
            synchronized (this) {
                for (ShopInvariants.Violation v : violations) {
                    violationsByInvariant.merge(v.invariant(), 1L, Long::sum);
                    if (described.size() < MAX_DESCRIBED) {
                        described.add("snapshot " + number + ": " + v);
                    }
                }
            }
        }
        lastSnapshot.set(snapshot);
        ShopState expected = expectedFinal.get();
        if (expected != null && expected.equals(snapshot)) {
            converged.countDown();
        }
    }

    /** @param expected the state the tables must reach (not changed afterwards by the caller) */
    public void expectFinal(ShopState expected) {
        expectedFinal.set(expected);
    }

    /**
     * @param timeoutMs longest wait in ms
     * @return true when a snapshot equal to the expected final state was read
     * @throws InterruptedException when interrupted
     */
    public boolean awaitConverged(long timeoutMs) throws InterruptedException {
        return converged.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /** @return snapshots read and checked so far */
    public long snapshots() {
        return snapshots.get();
    }

    /** @return failed reads so far */
    public long readErrors() {
        return readErrors.get();
    }

    /** @return the first failed read's message, or {@code null} */
    public String firstReadError() {
        return firstReadError.get();
    }

    /** @return the last snapshot read, or {@code null}; not to be modified */
    public ShopState lastSnapshot() {
        return lastSnapshot.get();
    }

    /** @return violations seen so far per invariant (every invariant listed, in check order) */
    public synchronized Map<String, Long> violationsByInvariant() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(violationsByInvariant));
    }

    /** @return up to {@value #MAX_DESCRIBED} violations, each naming the snapshot, invariant and order */
    public synchronized List<String> describedViolations() {
        return List.copyOf(described);
    }

    /** Stops reading (waits up to 5 s for a read in progress). */
    @Override
    public void close() {
        reader.shutdownNow();
        try {
            reader.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
