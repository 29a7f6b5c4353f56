package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/** The first failure is kept and its listener told exactly once, whichever comes first. */
class FirstFailureTest {
    @Test
    void theListenerRunsOnceAtTheFirstFailureAndLaterFailuresAreNotPostedAgain() {
        FirstFailure failure = new FirstFailure();
        AtomicInteger posts = new AtomicInteger();
        failure.whenFailed(posts::incrementAndGet);
        assertThat(posts).hasValue(0);
        assertThat(failure.record(new IllegalStateException("first"))).isTrue();
        assertThat(failure.record(new IllegalStateException("second"))).isFalse();
        assertThat(posts).hasValue(1);
        assertThat(failure.get()).hasMessage("first");
    }

    @Test
    void aListenerRegisteredAfterTheFailureRunsAtOnce() {
        FirstFailure failure = new FirstFailure();
        failure.record(new IllegalStateException("first"));
        AtomicInteger posts = new AtomicInteger();
        failure.whenFailed(posts::incrementAndGet);
        assertThat(posts).hasValue(1);
    }

    @Test
    void aSecondListenerIsRefusedAndAFailingListenerLeavesTheFailureRecorded() {
        FirstFailure failure = new FirstFailure();
        failure.whenFailed(() -> {
            throw new IllegalStateException("mailbox closed");
        });
        assertThatThrownBy(() -> failure.whenFailed(() -> { })).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already registered");
        assertThat(failure.record(new IllegalStateException("first"))).isTrue();
        assertThatThrownBy(() -> failure.rethrowIfFailed("write")).hasMessageContaining("first");
    }
}
