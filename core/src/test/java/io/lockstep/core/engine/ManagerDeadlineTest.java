package io.lockstep.core.engine;

import static io.lockstep.core.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The multi-table manager sleeps until its cycle's next deadline or a signal: every timer is a deadline that fires
 * exactly when due (not a millisecond earlier), and every task-thread or I/O event that brings work signals the
 * manager. Manual clock, no threads: the test plays the manager thread, jumping to each deadline.
 */
class ManagerDeadlineTest {
    private EngineFixture f = new EngineFixture();

    @AfterEach
    void close() {
        f.close();
    }

    private long nextDeadline() {
        return f.engine.cycle().nextDeadlineMs(f.clock.nowMs());
    }

    private boolean woken() {
        return f.engine.managerThread().takeWakeRequest();
    }

    @Test
    void anIdleEngineHasNoDeadlineAndSleepsUntilSignalled() {
        f.drive();
        assertThat(nextDeadline()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void theCommitIntervalIsADeadlineThatFiresExactlyWhenDue() throws Exception {
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        f.drive(); // begin at T0, load
        assertThat(nextDeadline()).isEqualTo(T0 + 1000);

        f.advanceAndDrive(999);
        assertThat(f.client.calls("commit")).isEmpty();
        f.advanceAndDrive(1);
        assertThat(f.client.calls("commit")).hasSize(1);
        assertThat(nextDeadline()).as("nothing left: no timer").isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void theIdleFreezeOfACleanPartitionIsADeadlineAndItsTransactionEndSignalsOnlyWhenSooner() throws Exception {
        f.write(0, "orders", "a");
        f.engine.txnEnd(0); // first end of the partition: freezes at once
        assertThat(woken()).as("a freeze signals").isTrue();
        f.drive();
        f.engine.managerThread().planWakeAt(T0 + 1000); // asleep until the commit

        f.clock.advanceMs(10);
        f.write(0, "orders", "b");
        f.engine.txnEnd(0); // within the mini interval (100 ms): clean, not frozen
        assertThat(woken()).as("idle freeze due at T0+100, before the planned wake").isTrue();
        f.drive();
        assertThat(nextDeadline()).isEqualTo(T0 + 100);
        f.advanceAndDrive(89); // T0+99
        assertThat(f.region(0, "orders").activeHasData()).isTrue();
        f.advanceAndDrive(1); // T0+100
        assertThat(f.region(0, "orders").activeHasData()).isFalse();

        f.engine.managerThread().planWakeAt(T0 + 150);
        woken(); // the load reply of the drive above signalled; start from none
        f.clock.advanceMs(10);
        f.write(0, "orders", "c");
        f.engine.txnEnd(0); // due at T0+200, after the planned wake: no needless wake-up
        assertThat(woken()).isFalse();
    }

    @Test
    void aPartitionInTheMiddleOfASourceTransactionSetsNoDeadline() throws Exception {
        f.write(0, "orders", "a");
        f.drive();
        assertThat(nextDeadline()).as("only its transaction end can make it freezable").isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void theLoadHoldOfASmallFrozenChunkIsADeadline() throws Exception {
        f.close();
        f = new EngineFixture(b -> b.minLoadRowBytes(1 << 20)); // load hold: max(mini 100, 1000 / 4) = 250 ms
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        f.drive(); // begin; the chunk is below the minimum load and waits
        assertThat(nextDeadline()).isEqualTo(T0 + 250);
        f.advanceAndDrive(249);
        assertThat(f.client.calls("load")).isEmpty();
        f.advanceAndDrive(1);
        assertThat(f.client.calls("load")).hasSize(1);
    }

    @Test
    void underMemoryPressureTheSoftLimitSignalsAndACleanPartitionFreezesWithinTheScanningFrequency()
            throws Exception {
        f.close();
        f = new EngineFixture(b -> b.bufferSizeBytes(64 * 1024).scanningFrequencyMs(20));
        byte[] big = ("{\"id\":\"" + "x".repeat(65 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8);
        f.engine.write(0, "db", "orders", big);
        assertThat(woken()).as("the soft limit signals").isTrue();
        f.engine.txnEnd(0);
        f.engine.runOnce(); // begin, load queued (its bytes stay held: pressure goes on)
        f.engine.managerThread().planWakeAt(T0 + 1000);

        f.clock.advanceMs(5);
        f.write(0, "orders", "b");
        f.engine.txnEnd(0); // under pressure but below the switch bytes (1 KiB): not frozen now
        assertThat(f.region(0, "orders").activeHasData()).isTrue();
        assertThat(woken()).as("pressure freeze due at T0+20").isTrue();
        assertThat(nextDeadline()).isEqualTo(T0 + 20);
    }

    @Test
    void aFlushRequestAndALoadReplySignalTheManager() throws Exception {
        f.write(0, "orders", "a");
        f.engine.txnEnd(0);
        woken();
        f.engine.runOnce(); // begin, load queued
        assertThat(woken()).isFalse();
        f.io.runAll();
        assertThat(woken()).as("a load reply signals").isTrue();
        f.engine.requestFlush();
        assertThat(woken()).as("a flush request signals").isTrue();
    }

    /**
     * The same 5 s of traffic (a busy partition, a slow one writing two tables, one that goes idle, one long source
     * transaction, a flush), driven twice: by a scan every millisecond (the finest periodic manager), and only at
     * the cycle's deadlines and signals. Both must send the same calls at the same times: no timer is missing from
     * the deadlines and no task-thread or I/O event fails to signal.
     */
    @Test
    void steppingOnlyAtDeadlinesAndSignalsMatchesAScanEveryMillisecond() throws Exception {
        List<String> everyMs = run(false);
        List<String> deadlines = run(true);
        assertThat(everyMs).as("the traffic commits several times").filteredOn(c -> c.contains("commit"))
                .hasSizeGreaterThan(3);
        assertThat(deadlines).isEqualTo(everyMs);
    }

    /** Runs the traffic on a fresh engine (minimum load 200 B: the load hold matters); returns "time call" lines. */
    private List<String> run(boolean onlyAtDeadlines) throws Exception {
        f.close();
        f = new EngineFixture(b -> b.minLoadRowBytes(200));
        List<String> seen = new ArrayList<>();
        long nextDeadline = Long.MIN_VALUE;
        for (int t = 0; t <= 5000; t++) {
            if (t > 0) {
                f.clock.advanceMs(1);
            }
            if (t % 7 == 0) {
                f.write(0, "orders", "o" + t);
                f.engine.txnEnd(0);
            }
            if (t % 130 == 3) {
                f.write(1, "items", "i" + t);
                f.write(1, "orders", "p" + t);
                f.engine.txnEnd(1);
            }
            if (t == 50 || t == 2000) {
                f.write(2, "orders", "q" + t);
                f.engine.txnEnd(2);
            }
            if (t >= 10 && t < 1500 && t % 100 == 10) {
                f.write(3, "items", "l" + t);
            } else if (t == 1500) {
                f.engine.txnEnd(3);
            }
            if (t == 3000) {
                f.engine.requestFlush();
            }
            long now = f.clock.nowMs();
            boolean step = !onlyAtDeadlines || woken() || now >= nextDeadline;
            if (step) {
                int before = f.client.calls().size();
                f.drive();
                woken(); // drive() handled the replies its loads signalled
                nextDeadline = f.engine.cycle().nextDeadlineMs(now);
                f.engine.managerThread().planWakeAt(nextDeadline);
                List<FakeTransactionClient.Call> calls = f.client.calls();
                for (int i = before; i < calls.size(); i++) {
                    seen.add(t + " " + calls.get(i));
                }
            }
        }
        return seen;
    }
}
