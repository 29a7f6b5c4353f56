package io.lockstep.core.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ManualTickerTest {
    @Test
    void movesOnlyForwardAndOnlyWhenTold() {
        ManualTicker ticker = new ManualTicker(1000);
        assertThat(ticker.nowMs()).isEqualTo(1000);
        assertThat(ticker.advanceMs(250)).isEqualTo(1250);
        assertThat(ticker.nowMs()).isEqualTo(1250);
        assertThatThrownBy(() -> ticker.advanceMs(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sleepAdvancesTheManualClockInsteadOfWaiting() {
        ManualTicker ticker = new ManualTicker(1000);
        ticker.sleep(60_000);
        assertThat(ticker.nowMs()).isEqualTo(61_000);
        ticker.sleep(-5);
        ticker.sleep(0);
        assertThat(ticker.nowMs()).isEqualTo(61_000);
    }

    @Test
    void systemTickerSleepsOnTheSameClock() throws InterruptedException {
        Ticker ticker = Ticker.system();
        long before = ticker.nowMs();
        ticker.sleep(5);
        assertThat(ticker.nowMs() - before).isGreaterThanOrEqualTo(5);
    }

    @Test
    void systemTickerNeverGoesBack() {
        Ticker ticker = Ticker.system();
        long first = ticker.nowMs();
        assertThat(ticker.nowMs()).isGreaterThanOrEqualTo(first);
        assertThat(first).isGreaterThan(1_600_000_000_000L);
    }
}
