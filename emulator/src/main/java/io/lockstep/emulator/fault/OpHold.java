package io.lockstep.emulator.fault;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A held request: the next request of an op blocks inside the server (after it was admitted to its load
 * context, i.e. while it is "in flight") until {@link #release()} — the deterministic way to test what happens
 * to a concurrent request, without sleeps.
 */
public final class OpHold {
    private final FaultOp op;
    private final CountDownLatch arrived = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    OpHold(FaultOp op) {
        this.op = op;
    }

    public FaultOp op() {
        return op;
    }

    /**
     * Waits until a request reached the hold.
     *
     * @return false when none arrived within the timeout
     */
    public boolean awaitArrived(long timeout, TimeUnit unit) throws InterruptedException {
        return arrived.await(timeout, unit);
    }

    /** Lets the held request continue. Idempotent. */
    public void release() {
        released.countDown();
    }

    /** Called by the server thread: signals arrival, then blocks until released (at most 60 s). */
    void block() {
        arrived.countDown();
        try {
            released.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
