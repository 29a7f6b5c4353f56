package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.client.FailureClass;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.progress.AnotherWriterException;
import io.lockstep.core.progress.ProgressTableException;
import org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler;
import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;
import org.junit.jupiter.api.Test;

class NonRecoverableSinkFailureTest {
    private static LoadEngineException engineFailure(Throwable cause) {
        return new LoadEngineException("checkpoint 3 of at-least-once sink subtask 0 failed: " + cause.getMessage(),
                cause);
    }

    @Test
    void aRefusedPasswordIsWrappedSoFlinksSchedulerDoesNotRestart() {
        TransactionException refused = new TransactionException("begin of label p-1 (db al, table events) failed "
                + "(ACCESS_DENIED): HTTP 401", null, FailureClass.ACCESS_DENIED, null);
        LoadEngineException failure = engineFailure(refused);

        RuntimeException raised = NonRecoverableSinkFailure.classify(failure);

        assertThat(raised).isInstanceOf(NonRecoverableSinkFailure.class).hasCause(failure)
                .hasMessage("TransactionException: " + refused.getMessage());
        assertThat(ExecutionFailureHandler.isUnrecoverableError(raised)).isTrue();
        assertThat(ExecutionFailureHandler.isUnrecoverableError(new RuntimeException("task failed", raised)))
                .as("found through the cause chain").isTrue();
    }

    @Test
    void dataErrorsAndProgressTableProblemsCannotHeal() {
        assertThat(NonRecoverableSinkFailure.classify(engineFailure(new TransactionException("load failed "
                + "(DATA_ERROR): too many filtered rows", "Fail", FailureClass.DATA_ERROR, null))))
                .isInstanceOf(NonRecoverableSinkFailure.class);
        assertThat(NonRecoverableSinkFailure.classify(new ProgressTableException("progress table db.p is missing")))
                .isInstanceOf(NonRecoverableSinkFailure.class).hasMessage("ProgressTableException: progress table "
                        + "db.p is missing");
        // a sibling subtask's run registering during a failover trips it too: a restart heals that
        assertThat(NonRecoverableSinkFailure.classify((Exception) new AnotherWriterException("job id j: another")))
                .isInstanceOf(AnotherWriterException.class);
    }

    @Test
    void retriableAndUnclassifiedFailuresAreLeftToTheRestartStrategy() {
        LoadEngineException busy = engineFailure(new TransactionException("begin failed after 4 attempt(s); last "
                + "failure (CONNECTION): refused", null, FailureClass.CONNECTION, null));
        LoadEngineException exhausted = engineFailure(new TransactionException("commit failed after 4 attempt(s)",
                null));
        LoadEngineException expired = engineFailure(new TransactionException("load under label l-m2 failed (OTHER): "
                + "Status 'FAILED', Message 'Stream load task l-m2 has already been cancelled: timeout by txn manager'",
                "FAILED", FailureClass.OTHER, null));
        IllegalStateException other = new IllegalStateException("task failed");

        assertThat(NonRecoverableSinkFailure.classify(busy)).isSameAs(busy);
        assertThat(NonRecoverableSinkFailure.classify(exhausted)).isSameAs(exhausted);
        assertThat(NonRecoverableSinkFailure.classify(expired)).as("a restart begins a new transaction")
                .isSameAs(expired);
        assertThat(NonRecoverableSinkFailure.classify(other)).isSameAs(other);
        assertThat(NonRecoverableSinkFailure.canNeverHeal(busy)).isFalse();
    }

    @Test
    void aFailureAlreadyMarkedNonRecoverableIsNotWrappedAgain() {
        RuntimeException marked = new BadInput("topic t partition 0 offset 7: malformed JSON");
        RuntimeException twice = NonRecoverableSinkFailure.classify(NonRecoverableSinkFailure.classify(
                engineFailure(new ProgressTableException("missing"))));

        assertThat(NonRecoverableSinkFailure.classify(marked)).isSameAs(marked);
        assertThat(NonRecoverableSinkFailure.canNeverHeal(marked)).isTrue();
        assertThat(twice).isInstanceOf(NonRecoverableSinkFailure.class).cause()
                .isInstanceOf(LoadEngineException.class);
    }

    /** Like the source side's bad-input exceptions: marked for Flink by its class. */
    @ThrowableAnnotation(ThrowableType.NonRecoverableError)
    private static final class BadInput extends RuntimeException {
        BadInput(String message) {
            super(message);
        }
    }
}
