package io.lockstep.core.client;

import io.lockstep.core.time.Ticker;

/**
 * The former name of the clients' clock, kept so that callers written against it still compile: it is a
 * {@link Ticker} and adds nothing. New code takes a {@link Ticker}; a caller passing {@code Sleeper.SYSTEM} may pass
 * {@code Ticker.system()} instead (a one-line swap).
 */
public interface Sleeper extends Ticker {

    /** {@link Ticker#system()} under this name. */
    Sleeper SYSTEM = new Sleeper() {
        @Override
        public long nowMs() {
            return Ticker.system().nowMs();
        }

        @Override
        public void sleep(long ms) throws InterruptedException {
            Ticker.system().sleep(ms);
        }
    };
}
