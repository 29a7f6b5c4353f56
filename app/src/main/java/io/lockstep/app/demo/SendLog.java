package io.lockstep.app.demo;

import java.util.concurrent.atomic.AtomicInteger;
import javax.annotation.concurrent.ThreadSafe;

/**
 * When each source transaction was handed to Kafka, in write order, to measure freshness: the lag is the age of
 * the oldest transaction the sink has not committed yet ({@link #lagMs}). The committed count is summed over all
 * partitions while partitions commit independently, so the transaction at that position in the global write order
 * stands in for the oldest uncommitted one: exact when partitions keep pace, an approximation otherwise.
 *
 * <p>One writer thread appends; any thread reads. An element is written before the volatile count that
 * publishes it, so a reader that sees the count sees the element.
 */
@ThreadSafe
final class SendLog {
    private final long[] sentAtNanos;
    private final AtomicInteger count = new AtomicInteger();

    /** @param capacity most transactions recorded; later ones are not recorded (lag then reads as 0) */
    SendLog(int capacity) {
        this.sentAtNanos = new long[Math.max(1, capacity)];
    }

    /** Writer thread: the next transaction was sent at {@code nanos} ({@link System#nanoTime()}). */
    void sent(long nanos) {
        int index = count.get();
        if (index < sentAtNanos.length) {
            sentAtNanos[index] = nanos;
            count.set(index + 1);
        }
    }

    /**
     * @param committed source transactions committed so far
     * @param nowNanos now, {@link System#nanoTime()}
     * @return ms since the first transaction not yet committed was sent; 0 when all recorded ones are
     */
    long lagMs(long committed, long nowNanos) {
        int recorded = count.get();
        if (committed < 0 || committed >= recorded) {
            return 0;
        }
        return Math.max(0, (nowNanos - sentAtNanos[(int) committed]) / 1_000_000L);
    }
}
