package io.lockstep.flink.sink.v2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.client.FailureClass;
import io.lockstep.core.client.LabelState;
import io.lockstep.core.client.LoadReply;
import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.restart.CheckpointedTransaction;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.flink.sink.NonRecoverableSinkFailure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.sink2.Committer;
import org.junit.jupiter.api.Test;

/** How the Sink V2 committer sorts commit outcomes: done, retry later, or fail naming the label. */
class ExactlyOnceCommitterTest {
    /** Commits fail with the given message when the label is listed; labelState answers from a map. */
    static final class ScriptedClient implements TransactionClient {
        final Map<String, LabelState> states = new HashMap<>();
        final Map<String, String> commitFailures = new HashMap<>();
        /** The class of a label's commit failure (none: unclassified). */
        final Map<String, FailureClass> failureClasses = new HashMap<>();
        final List<String> stateReads = new ArrayList<>();
        final List<String> committed = new ArrayList<>();
        boolean closed;

        @Override
        public void commit(TransactionRef txn) throws TransactionException {
            String failure = commitFailures.get(txn.label());
            if (failure != null) {
                throw new TransactionException(failure, "FAILED", failureClasses.get(txn.label()), null);
            }
            committed.add(txn.label());
        }

        @Override
        public LabelState labelState(String database, String label) throws TransactionException {
            stateReads.add(label);
            LabelState state = states.get(label);
            if (state == null) {
                throw new TransactionException("label state of " + label + " unreadable", "TIMEOUT");
            }
            return state;
        }

        @Override
        public long begin(TransactionRef txn, int timeoutSeconds) {
            throw new UnsupportedOperationException();
        }

        @Override
        public LoadReply load(TransactionRef txn, String table, byte[] body, Map<String, String> loadProperties) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void prepare(TransactionRef txn) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void rollback(TransactionRef txn) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void cancel(String database, String table, String label) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** Records what the committer signalled. */
    static final class Request implements Committer.CommitRequest<CheckpointedTransaction> {
        final CheckpointedTransaction txn;
        final int retries;
        String signal = "none";

        Request(String label, int retries) {
            this.txn = new CheckpointedTransaction("db", "t", label, 3, "run");
            this.retries = retries;
        }

        @Override
        public CheckpointedTransaction getCommittable() {
            return txn;
        }

        @Override
        public int getNumberOfRetries() {
            return retries;
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {
            signal = "known";
        }

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {
            signal = "unknown";
        }

        @Override
        public void retryLater() {
            signal = "retry";
        }

        @Override
        public void updateAndRetryLater(CheckpointedTransaction committable) {
            signal = "update";
        }

        @Override
        public void signalAlreadyCommitted() {
            signal = "already";
        }
    }

    @Test
    void committedLabelsAreDoneAndAnUnsettledOneIsRetriedLater() throws Exception {
        ScriptedClient client = new ScriptedClient();
        client.commitFailures.put("l-late", "commit reply lost");
        client.states.put("l-late", LabelState.COMMITTED);
        client.commitFailures.put("l-open", "commit timed out");
        client.states.put("l-open", LabelState.PREPARED);
        Request ok = new Request("l-ok", 0);
        Request late = new Request("l-late", 0);
        Request open = new Request("l-open", 0);

        try (ExactlyOnceCommitter committer = new ExactlyOnceCommitter(client)) {
            committer.commit(List.of(ok, late, open));
        }

        assertThat(client.committed).containsExactly("l-ok");
        assertThat(ok.signal).isEqualTo("none");
        assertThat(late.signal).isEqualTo("already");
        assertThat(open.signal).isEqualTo("retry");
        assertThat(client.closed).isTrue();
    }

    @Test
    void anAbortedOrForgottenLabelFailsTheJobAtOnceNamingItAndTheServerSetting() {
        for (LabelState gone : List.of(LabelState.ABORTED, LabelState.UNKNOWN)) {
            ScriptedClient client = new ScriptedClient();
            client.commitFailures.put("l-gone", "label is " + gone);
            client.states.put("l-gone", gone);
            Request request = new Request("l-gone", 0);

            assertThatThrownBy(() -> new ExactlyOnceCommitter(client).commit(List.of(request))).as("%s", gone)
                    .isInstanceOf(NonRecoverableSinkFailure.class)
                    .hasMessageContaining("label l-gone")
                    .hasMessageContaining("the label is " + gone)
                    .hasMessageContaining("prepared_transaction_default_timeout_second")
                    .hasRootCauseInstanceOf(TransactionException.class)
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
            assertThat(request.signal).as("no retry for %s", gone).isEqualTo("none");
        }
    }

    @Test
    void anUnsettledCommitFailsOnceTheAttemptsAreSpent() {
        ScriptedClient client = new ScriptedClient();
        client.commitFailures.put("l-stuck", "connection refused");

        assertThatThrownBy(() -> new ExactlyOnceCommitter(client).commit(List.of(
                new Request("l-stuck", ExactlyOnceCommitter.MAX_COMMIT_ATTEMPTS - 1))))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("did not settle after " + ExactlyOnceCommitter.MAX_COMMIT_ATTEMPTS + " attempts")
                .hasMessageContaining("label state unreadable");
    }

    @Test
    void aRefusedCommitFailsTheJobAtOnceAsNonRecoverable() {
        for (FailureClass refusal : List.of(FailureClass.ACCESS_DENIED, FailureClass.DATA_ERROR)) {
            ScriptedClient client = new ScriptedClient();
            client.commitFailures.put("l-denied", "commit of l-denied failed (" + refusal + "): HTTP 401");
            client.failureClasses.put("l-denied", refusal);
            Request request = new Request("l-denied", 0);

            assertThatThrownBy(() -> new ExactlyOnceCommitter(client).commit(List.of(request))).as("%s", refusal)
                    .isInstanceOf(NonRecoverableSinkFailure.class)
                    .hasMessageContaining(refusal.name())
                    .hasStackTraceContaining("commit of label l-denied (table db.t, checkpoint 3) was refused")
                    .hasRootCauseInstanceOf(TransactionException.class);
            assertThat(request.signal).as("no retry for %s", refusal).isEqualTo("none");
            assertThat(client.stateReads).as("no label state read for %s", refusal).isEmpty();
        }
    }

    @Test
    void aCommitFailureThatMayHealIsStillRetried() throws IOException {
        ScriptedClient client = new ScriptedClient();
        client.commitFailures.put("l-busy", "commit of l-busy failed (HTTP_5XX): HTTP 503");
        client.failureClasses.put("l-busy", FailureClass.HTTP_5XX);
        client.states.put("l-busy", LabelState.PREPARED);
        Request request = new Request("l-busy", 0);

        new ExactlyOnceCommitter(client).commit(List.of(request));

        assertThat(request.signal).isEqualTo("retry");
        assertThat(client.stateReads).containsExactly("l-busy");
    }

    @Test
    void aPreparedTransactionTheServerExpiredFailsTheCommitterOnceAgainstTheEmulator() throws Exception {
        try (StarRocksEmulator sr = StarRocksEmulator.builder().ddl("CREATE DATABASE db; CREATE TABLE db.t (id INT) "
                + "DUPLICATE KEY (id)").build().start();
             StarRocksTransactionClient client = new StarRocksTransactionClient(TransactionClientConfig.builder()
                     .loadUrls(sr.feUrl()).username("root").maxRetries(1).retryBackoff(1, 2)
                     .labelStateTimeoutMs(2_000).build(), LoadMetrics.noop())) {
            Request request = new Request("l-expired", 0);
            TransactionRef ref = request.txn.ref();
            client.begin(ref, 600);
            client.load(ref, "t", "[{\"id\":1}]".getBytes(StandardCharsets.UTF_8),
                    Map.of("format", "json", "strip_outer_array", "true"));
            client.prepare(ref);
            assertThat(sr.faults().forceExpire("db", "l-expired")).as("expired by the server").isTrue();

            assertThatThrownBy(() -> new ExactlyOnceCommitter(client).commit(List.of(request)))
                    .isInstanceOf(NonRecoverableSinkFailure.class)
                    .hasMessageContaining("label l-expired (table db.t, checkpoint 3) cannot be committed: the label "
                            + "is ABORTED")
                    .hasRootCauseInstanceOf(TransactionException.class);
            assertThat(request.signal).isEqualTo("none");
        }
    }
}
