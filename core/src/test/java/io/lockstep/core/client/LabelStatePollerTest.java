package io.lockstep.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.time.Ticker;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class LabelStatePollerTest {
    private final RecordingTicker ticker = new RecordingTicker();

    @Test
    void stopsAtTheFirstAcceptedStateWithDoublingWaits() throws Exception {
        Deque<LabelState> answers = new ArrayDeque<>(List.of(LabelState.PREPARE, LabelState.PREPARE,
                LabelState.PREPARE, LabelState.COMMITTED, LabelState.VISIBLE));
        LabelStatePoller poller = new LabelStatePoller(ticker, 50, 150);

        LabelStatePoller.Outcome<LabelState> outcome = poller.poll(answers::poll,
                s -> s != LabelState.PREPARE, 10_000, null);

        assertThat(outcome).isEqualTo(new LabelStatePoller.Outcome<>(LabelState.COMMITTED, true));
        assertThat(ticker.sleeps()).containsExactly(50L, 100L, 150L);
    }

    @Test
    void endsWithTheLastStateAtTheDeadlineNeverSleepingPastIt() throws Exception {
        LabelStatePoller poller = new LabelStatePoller(ticker, 50, 1000);
        List<Boolean> firsts = new ArrayList<>();

        LabelStatePoller.Outcome<LabelState> outcome = poller.poll(() -> LabelState.COMMITTED,
                s -> s == LabelState.VISIBLE, 120, (first, remainingMs) -> firsts.add(first));

        assertThat(outcome).isEqualTo(new LabelStatePoller.Outcome<>(LabelState.COMMITTED, false));
        assertThat(ticker.sleeps()).containsExactly(50L, 70L);
        assertThat(firsts).containsExactly(true, false);
    }

    @Test
    void pollsOnceWithoutWaitingWhenTheTimeoutIsZero() throws Exception {
        int[] polls = {0};
        LabelStatePoller.Outcome<Integer> outcome = LabelStatePoller.forSettling(ticker).poll(() -> ++polls[0],
                n -> false, 0, null);

        assertThat(outcome.reached()).isFalse();
        assertThat(polls[0]).isEqualTo(1);
        assertThat(ticker.sleeps()).isEmpty();
    }

    @Test
    void awaitStateQueriesTheLabelInItsDatabase() throws Exception {
        List<String> asked = new ArrayList<>();
        Deque<LabelState> answers = new ArrayDeque<>(List.of(LabelState.PREPARED, LabelState.ABORTED));
        TransactionClient client = new LabelOnlyClient((database, label) -> {
            asked.add(database + "/" + label);
            return answers.poll();
        });

        LabelState state = LabelStatePoller.forSettling(ticker).awaitState(client, "db", "l-1",
                EnumSet.complementOf(EnumSet.of(LabelState.PREPARE, LabelState.PREPARED)), 5_000);

        assertThat(state).isEqualTo(LabelState.ABORTED);
        assertThat(asked).containsExactly("db/l-1", "db/l-1");
        assertThat(ticker.sleeps()).containsExactly(LabelStatePoller.SETTLE_INITIAL_WAIT_MS);
    }

    @Test
    void anInterruptedWaitIsThrownAsInterruptedException() {
        Ticker interrupted = new Ticker() {
            @Override
            public long nowMs() {
                return 0;
            }

            @Override
            public void sleep(long ms) throws InterruptedException {
                throw new InterruptedException("stop");
            }
        };
        LabelStatePoller poller = LabelStatePoller.forSettling(interrupted);

        assertThatThrownBy(() -> poller.poll(() -> LabelState.PREPARE, s -> false, 1000, null))
                .isInstanceOf(InterruptedException.class);
    }

    @Test
    void refusesWaitsThatCannotBackOff() {
        assertThatThrownBy(() -> new LabelStatePoller(ticker, 0, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("initial 0 ms");
        assertThatThrownBy(() -> new LabelStatePoller(ticker, 100, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max 10 ms");
    }

    /** A client that answers label-state queries only. */
    private static final class LabelOnlyClient implements TransactionClient {
        private final LabelStatePolling.Query query;

        LabelOnlyClient(LabelStatePolling.Query query) {
            this.query = query;
        }

        @Override
        public LabelState labelState(String database, String label) throws TransactionException {
            return query.labelState(database, label);
        }

        @Override
        public long begin(TransactionRef txn, int timeoutSeconds) {
            throw new UnsupportedOperationException("begin");
        }

        @Override
        public LoadReply load(TransactionRef txn, String table, byte[] body, java.util.Map<String, String> properties) {
            throw new UnsupportedOperationException("load");
        }

        @Override
        public void prepare(TransactionRef txn) {
            throw new UnsupportedOperationException("prepare");
        }

        @Override
        public void commit(TransactionRef txn) {
            throw new UnsupportedOperationException("commit");
        }

        @Override
        public void rollback(TransactionRef txn) {
            throw new UnsupportedOperationException("rollback");
        }

        @Override
        public void cancel(String database, String table, String label) {
            throw new UnsupportedOperationException("cancel");
        }

        @Override
        public void close() {
        }
    }
}
