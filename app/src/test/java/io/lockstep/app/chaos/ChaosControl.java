package io.lockstep.app.chaos;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a chaos test and its job share, by run name (the MiniCluster runs in the test's JVM, so the source and
 * the faulting sinks reach the test's objects through this registry; the functions themselves only carry the
 * name, which serializes). Every field is atomic: written by task threads of any attempt, read by the test.
 *
 * <p>Task-failure hooks are one-shot: the test arms one, the first sink subtask that reaches the hook
 * disarms it and throws.
 */
final class ChaosControl {
    private static final Map<String, ChaosControl> RUNS = new ConcurrentHashMap<>();

    /** The source stops after this many transactions (position); {@code Long.MAX_VALUE} = keep going. */
    final AtomicLong stopAt = new AtomicLong(Long.MAX_VALUE);
    /** Highest source position (transactions emitted) covered by a completed checkpoint. */
    final AtomicLong completedPosition = new AtomicLong();
    /** Highest source position emitted by any attempt. */
    final AtomicLong emittedPosition = new AtomicLong();
    /** Source starts from restored state (one per job restart). */
    final AtomicInteger sourceRestores = new AtomicInteger();
    /** Records to let through before {@link FaultingSinks} throws in invoke; 0 = disarmed. */
    final AtomicLong failAtRecord = new AtomicLong();
    /** Throw in the next snapshotState (after the sink's own work). */
    final AtomicBoolean failInSnapshot = new AtomicBoolean();
    /** Throw in the next notifyCheckpointComplete, before the sink commits. */
    final AtomicBoolean failAfterCheckpoint = new AtomicBoolean();
    /** Hook failures thrown so far. */
    final AtomicInteger taskFailuresThrown = new AtomicInteger();
    /**
     * Runs once inside the next notifyCheckpointComplete that is about to commit, before the injected failure
     * (set by the unrecoverable-expiry test; null = none).
     */
    volatile Runnable beforeCommitHook;

    private ChaosControl() {
    }

    /** @return a fresh control under {@code name}, replacing an earlier one */
    static ChaosControl create(String name) {
        ChaosControl control = new ChaosControl();
        RUNS.put(name, control);
        return control;
    }

    /** @throws IllegalStateException when no test created the run */
    static ChaosControl of(String name) {
        ChaosControl control = RUNS.get(name);
        if (control == null) {
            throw new IllegalStateException("no chaos run named " + name);
        }
        return control;
    }

    static void remove(String name) {
        RUNS.remove(name);
    }
}
