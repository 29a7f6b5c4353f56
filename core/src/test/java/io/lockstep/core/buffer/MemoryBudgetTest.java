package io.lockstep.core.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class MemoryBudgetTest {
    private final AtomicInteger pressureCalls = new AtomicInteger();
    private final MemoryBudget budget = new MemoryBudget(100, 200, pressureCalls::incrementAndGet);

    @Test
    void countsReservationsAndReturnsToExactlyZero() throws Exception {
        budget.reserve(30, 10, "a");
        budget.reserve(50, 10, "b");
        assertThat(budget.usedBytes()).isEqualTo(80);
        budget.release(50);
        budget.release(30);
        assertThat(budget.usedBytes()).isZero();
    }

    @Test
    void softLimitWakesTheManagerOnceWhenCrossed() throws Exception {
        budget.reserve(60, 10, "a");
        assertThat(pressureCalls).hasValue(0);
        assertThat(budget.underPressure()).isFalse();
        budget.reserve(40, 10, "b"); // reaches 100
        assertThat(pressureCalls).hasValue(1);
        budget.reserve(10, 10, "c");
        assertThat(pressureCalls).hasValue(1);
        assertThat(budget.underPressure()).isTrue();
    }

    @Test
    void requestLargerThanTheHardLimitFailsAtOnceNamingTheBytes() {
        assertThatThrownBy(() -> budget.reserve(201, 60_000, "row for db.t (partition 1)"))
                .isInstanceOf(BufferExhaustedException.class)
                .hasMessageContaining("row for db.t (partition 1)")
                .hasMessageContaining("201 bytes")
                .hasMessageContaining("200 bytes");
        assertThat(budget.usedBytes()).isZero();
    }

    @Test
    void hardLimitBlocksUntilAReleaseMakesRoom() throws Exception {
        budget.reserve(180, 10, "a");
        CountDownLatch reserved = new CountDownLatch(1);
        AtomicReference<Throwable> error = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                budget.reserve(50, 30_000, "b");
                reserved.countDown();
            } catch (Throwable t) {
                error.set(t);
            }
        });
        writer.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> budget.waitingThreads() == 1);
        assertThat(reserved.getCount()).isEqualTo(1);
        assertThat(pressureCalls.get()).as("a blocked writer asks the manager to drain").isPositive();

        budget.release(20); // 160 + 50 > 200: still blocked
        assertThat(reserved.await(50, TimeUnit.MILLISECONDS)).isFalse();
        budget.release(100); // 60 + 50 fits
        assertThat(reserved.await(10, TimeUnit.SECONDS)).isTrue();
        writer.join(10_000);
        assertThat(error.get()).isNull();
        assertThat(budget.usedBytes()).isEqualTo(110);
        assertThat(budget.waitingThreads()).isZero();
    }

    @Test
    void waitPastTheDeadlineFailsNamingTheBytesAndReservesNothing() throws Exception {
        budget.reserve(190, 10, "a");
        assertThatThrownBy(() -> budget.reserve(20, 20, "row for db.t (partition 2)"))
                .isInstanceOf(BufferExhaustedException.class)
                .hasMessageContaining("row for db.t (partition 2)")
                .hasMessageContaining("20 bytes")
                .hasMessageContaining("190 of the hard limit 200");
        assertThat(budget.usedBytes()).isEqualTo(190);
        assertThat(budget.waitingThreads()).isZero();
    }

    @Test
    void closeWakesABlockedWriterWithTheCause() throws Exception {
        budget.reserve(200, 10, "a");
        AtomicReference<Throwable> error = new AtomicReference<>();
        CountDownLatch ended = new CountDownLatch(1);
        Thread writer = new Thread(() -> {
            try {
                budget.reserve(1, 60_000, "b");
            } catch (Throwable t) {
                error.set(t);
            }
            ended.countDown();
        });
        writer.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> budget.waitingThreads() == 1);
        budget.close(new IllegalStateException("load failed"));
        assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(error.get()).isInstanceOf(BufferExhaustedException.class).hasMessageContaining("load failed");
        budget.release(200);
        assertThat(budget.usedBytes()).isZero();
    }

    @Test
    void interruptedWaitReservesNothing() throws Exception {
        budget.reserve(200, 10, "a");
        AtomicReference<Throwable> error = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                budget.reserve(10, 60_000, "b");
            } catch (Throwable t) {
                error.set(t);
            }
        });
        writer.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> budget.waitingThreads() == 1);
        writer.interrupt();
        writer.join(10_000);
        assertThat(error.get()).isInstanceOf(InterruptedException.class);
        assertThat(budget.usedBytes()).isEqualTo(200);
        assertThat(budget.waitingThreads()).isZero();
    }

    @Test
    void releasingMoreThanReservedIsAnAccountingError() throws Exception {
        budget.reserve(10, 10, "a");
        assertThatThrownBy(() -> budget.release(11)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("11");
        assertThat(budget.usedBytes()).isEqualTo(10);
    }

    @Test
    void tryReserveTakesRoomWithoutWaitingAndRefusesWhatWouldWaitOrIsClosed() {
        assertThat(budget.tryReserve(100)).isTrue();
        assertThat(pressureCalls).as("reaching the soft limit wakes the manager, as reserve does").hasValue(1);
        assertThat(budget.tryReserve(100)).as("up to the hard limit").isTrue();
        assertThat(budget.tryReserve(1)).as("past the hard limit it would wait").isFalse();
        assertThat(budget.usedBytes()).isEqualTo(200);
        budget.release(150);
        budget.close(new IllegalStateException("closing"));
        assertThat(budget.tryReserve(1)).as("closed").isFalse();
        assertThat(budget.usedBytes()).as("a refused try reserves nothing").isEqualTo(50);
    }
}
