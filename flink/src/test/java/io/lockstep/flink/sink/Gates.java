package io.lockstep.flink.sink;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Named one-shot gates shared by a test thread and the sources it runs on an in-JVM MiniCluster (same JVM, so a
 * static map works). A source waits at a gate until the test opens it. Names are unique per test (see
 * {@link #newName}), so tests never see each other's gates.
 */
final class Gates {
    private static final Map<String, CountDownLatch> GATES = new ConcurrentHashMap<>();
    private static final Map<String, CountDownLatch> REACHED = new ConcurrentHashMap<>();

    private Gates() {
    }

    /** A fresh gate name. */
    static String newName(String what) {
        return what + "-" + java.util.UUID.randomUUID();
    }

    /** Test thread: lets every source waiting at {@code name} go on. */
    static void open(String name) {
        latch(GATES, name).countDown();
    }

    /** Test thread: whether a source has arrived at {@code name}. */
    static boolean reached(String name) {
        return latch(REACHED, name).getCount() == 0;
    }

    /**
     * Source thread: marks {@code name} reached and waits until it is opened or {@code running} turns false.
     *
     * @return true if opened
     */
    static boolean pass(String name, BooleanSupplier running) throws InterruptedException {
        latch(REACHED, name).countDown();
        CountDownLatch gate = latch(GATES, name);
        while (running.getAsBoolean()) {
            if (gate.await(50, TimeUnit.MILLISECONDS)) {
                return true;
            }
        }
        return false;
    }

    private static CountDownLatch latch(Map<String, CountDownLatch> map, String name) {
        return map.computeIfAbsent(name, n -> new CountDownLatch(1));
    }
}
