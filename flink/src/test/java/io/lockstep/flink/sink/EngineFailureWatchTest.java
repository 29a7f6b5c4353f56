package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.engine.LoadEngineException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.util.function.ThrowingRunnable;
import org.junit.jupiter.api.Test;

/** The Sink V2 path: the engine's first failure reaches the task as one mail, no polling. */
class EngineFailureWatchTest {

    /** A mailbox that queues mails for the test to run as the task thread would. */
    private static final class QueuedMailbox implements MailboxExecutor {
        final List<ThrowingRunnable<? extends Exception>> mails = new ArrayList<>();
        boolean closed;

        @Override
        public void execute(MailOptions options, ThrowingRunnable<? extends Exception> command,
                            String descriptionFormat, Object... descriptionArgs) {
            if (closed) {
                throw new IllegalStateException("mailbox closed");
            }
            mails.add(command);
        }

        @Override
        public void yield() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean tryYield() {
            return false;
        }

        @Override
        public boolean shouldInterrupt() {
            return false;
        }
    }

    private final QueuedMailbox mailbox = new QueuedMailbox();
    private final AtomicReference<Runnable> engineListener = new AtomicReference<>();
    private final AtomicReference<RuntimeException> engineFailure = new AtomicReference<>();

    private EngineFailureWatch start() {
        return EngineFailureWatch.start(EngineFailureWatch.Target.mailbox(mailbox), () -> {
            if (engineFailure.get() != null) {
                throw engineFailure.get();
            }
        }, engineListener::set);
    }

    @Test
    void theFirstFailurePostsOneMailThatFailsTheTaskWithIt() {
        start();
        assertThat(engineListener.get()).as("registered with the engine").isNotNull();
        assertThat(mailbox.mails).as("nothing posted while the engine is healthy").isEmpty();

        engineFailure.set(new LoadEngineException("load of db.orders failed"));
        engineListener.get().run(); // the engine thread, at its first failure
        assertThat(mailbox.mails).hasSize(1);
        assertThatThrownBy(() -> mailbox.mails.get(0).run()).hasMessageContaining("load of db.orders failed");
    }

    @Test
    void aMailThatArrivesAfterCloseDoesNothing() throws Exception {
        EngineFailureWatch watch = start();
        engineFailure.set(new LoadEngineException("rollback at close failed"));
        engineListener.get().run();
        watch.stop();
        assertThatCode(() -> mailbox.mails.get(0).run()).doesNotThrowAnyException();
    }

    @Test
    void aClosedMailboxDoesNotBreakTheEngineThread() {
        start();
        mailbox.closed = true;
        engineFailure.set(new LoadEngineException("late failure"));
        assertThatCode(() -> engineListener.get().run()).doesNotThrowAnyException();
    }
}
