package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.time.ManualTicker;
import io.lockstep.core.time.Ticker;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ManagerThreadTest {
    @Test
    void anErrorInAStepIsReportedAndTheLoopGoesOn() throws Exception {
        AtomicInteger steps = new AtomicInteger();
        CountDownLatch thirdStep = new CountDownLatch(1);
        List<Throwable> crashes = new CopyOnWriteArrayList<>();
        CountDownLatch exited = new CountDownLatch(1);
        ManagerThread thread = new ManagerThread("test-manager", Ticker.system(), 60_000, () -> {
            int n = steps.incrementAndGet();
            if (n == 1) {
                throw new AssertionError("error in step 1");
            }
            if (n == 3) {
                thirdStep.countDown();
            }
            return Long.MAX_VALUE;
        }, crashes::add, exited::countDown);
        thread.start();
        thread.wake();
        // wake until the third step ran; the long scan period proves wake-ups drive it
        while (!thirdStep.await(10, TimeUnit.MILLISECONDS)) {
            thread.wake();
        }
        assertThat(crashes).hasSize(1);
        assertThat(crashes.get(0)).hasMessage("error in step 1");
        assertThat(thread.isAlive()).isTrue();

        assertThat(thread.stop(10_000)).isTrue();
        assertThat(exited.getCount()).as("onExit ran on the manager thread").isZero();
    }

    @Test
    void aStepsDeadlineWakesTheThreadWithoutASignal() throws Exception {
        ManualTicker clock = new ManualTicker(1_700_000_000_000L); // never moves: each wait is the 5 ms asked for
        CountDownLatch threeSteps = new CountDownLatch(3);
        ManagerThread thread = new ManagerThread("test-manager", clock, Long.MAX_VALUE, () -> {
            threeSteps.countDown();
            return clock.nowMs() + 5;
        }, t -> { }, () -> { });
        thread.start();
        assertThat(threeSteps.await(30, TimeUnit.SECONDS)).as("no wake-up, no scan period: only the deadline")
                .isTrue();
        assertThat(thread.stop(10_000)).isTrue();
    }

    @Test
    void withoutADeadlineTheThreadSleepsUntilWokenByAnEarlierDeadline() throws Exception {
        ManualTicker clock = new ManualTicker(1_700_000_000_000L);
        AtomicInteger steps = new AtomicInteger();
        CountDownLatch secondStep = new CountDownLatch(1);
        ManagerThread thread = new ManagerThread("test-manager", clock, Long.MAX_VALUE, () -> {
            if (steps.incrementAndGet() == 2) {
                secondStep.countDown();
            }
            return Long.MAX_VALUE;
        }, t -> { }, () -> { });
        thread.start();
        thread.wakeBy(clock.nowMs() + 1_000);
        assertThat(secondStep.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(thread.stop(10_000)).as("stop wakes a thread with no deadline").isTrue();
    }

    @Test
    void wakeByWakesOnlyForADeadlineBeforeThePlannedWake() {
        ManagerThread thread = new ManagerThread("test-manager", new ManualTicker(0), Long.MAX_VALUE,
                () -> Long.MAX_VALUE, t -> { }, () -> { });
        thread.planWakeAt(1_000);
        thread.wakeBy(1_000);
        thread.wakeBy(5_000);
        assertThat(thread.takeWakeRequest()).isFalse();
        thread.wakeBy(999);
        assertThat(thread.takeWakeRequest()).isTrue();
    }
}
