package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

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
        ManagerThread thread = new ManagerThread("test-manager", 60_000, () -> {
            int n = steps.incrementAndGet();
            if (n == 1) {
                throw new AssertionError("error in step 1");
            }
            if (n == 3) {
                thirdStep.countDown();
            }
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
}
