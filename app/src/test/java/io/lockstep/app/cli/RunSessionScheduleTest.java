package io.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The progress line of {@code lockstep run} is printed at the period {@code --progress-interval} asks for, also
 * below the one-second reading of the restart count; nothing is run: the executor records what is scheduled.
 */
class RunSessionScheduleTest {
    private final RecordingTicker ticker = new RecordingTicker();

    @AfterEach
    void stop() {
        ticker.shutdownNow();
    }

    @Test
    void aProgressIntervalBelowOneSecondIsHonoured() {
        RunSession.schedule(ticker, 250, () -> { }, () -> { });

        assertThat(ticker.periodsMs).containsExactlyInAnyOrder(RunSession.OBSERVE_MS, 250L);
    }

    @Test
    void aProgressIntervalThatIsNoMultipleOfASecondIsHonoured() {
        RunSession.schedule(ticker, 1_500, () -> { }, () -> { });

        assertThat(ticker.periodsMs).containsExactlyInAnyOrder(RunSession.OBSERVE_MS, 1_500L);
    }

    @Test
    void withoutProgressOnlyTheRestartCountIsRead() {
        RunSession.schedule(ticker, 0, () -> { }, () -> { });

        assertThat(ticker.periodsMs).containsExactly(RunSession.OBSERVE_MS);
    }

    /** Records the period of each fixed-rate task, in ms, and runs none of them. */
    private static final class RecordingTicker extends ScheduledThreadPoolExecutor {
        final List<Long> periodsMs = new ArrayList<>();

        RecordingTicker() {
            super(1);
        }

        @Override
        public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
            periodsMs.add(unit.toMillis(period));
            return super.schedule(() -> { }, 1, TimeUnit.DAYS);
        }
    }
}
