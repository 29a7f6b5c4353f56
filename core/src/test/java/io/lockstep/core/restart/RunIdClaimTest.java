package io.lockstep.core.restart;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.label.RunId;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import io.lockstep.emulator.txn.TransactionStatus;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link RunIdClaim} against the emulator. */
class RunIdClaimTest {
    private static final String PREFIX = "eo-run";
    private static final String JOB = "0123456789abcdef0123456789abcdef";
    private static final List<String> RESTORED = List.of("runb", "runa");
    private static final long CHECKPOINT = 7;
    private static final int SUBTASK = 2;
    private static final TableId EVENTS = new TableId("eo", "events");

    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder().ddl(
            "CREATE DATABASE eo; CREATE TABLE eo.events (id INT) DUPLICATE KEY (id)"));

    private TransactionClient client;

    @BeforeEach
    void openClient() {
        client = new StarRocksTransactionClient(TransactionClientConfig.builder()
                .loadUrls(sr.emulator().feUrl().replace("http://", "")).username("root")
                .retryBackoff(1, 2).labelStateTimeoutMs(2_000).build(), LoadMetrics.noop());
    }

    @AfterEach
    void closeClient() {
        client.close();
    }

    private String claim() {
        return RunIdClaim.claim(client, LingeringTransactionAborter.forCheckNum(client, -1), PREFIX, SUBTASK, JOB,
                RESTORED, CHECKPOINT, List.of(EVENTS), Set.of());
    }

    private static String candidate(int k) {
        return RunId.derived(JOB, RESTORED, CHECKPOINT, SUBTASK, k);
    }

    /** Begins (and loads one row under) the label {@code runId} gives the table at {@code checkpoint}. */
    private TransactionRef begin(String runId, long checkpoint) throws TransactionException {
        TransactionRef ref = TransactionRef.singleTable("eo", "events",
                new LabelGenerator(PREFIX, SUBTASK, runId).exactlyOnceLabel("events", checkpoint));
        client.begin(ref, 600);
        client.load(ref, "events", "[{\"id\":1}]".getBytes(StandardCharsets.UTF_8),
                Map.of("format", "json", "strip_outer_array", "true"));
        return ref;
    }

    private TransactionStatus state(TransactionRef ref) {
        return sr.emulator().labelState(ref.database(), ref.label());
    }

    @Test
    void candidatesAreValidRunIdsThatDependOnEveryInputButNotOnTheOrderOfRunIds() {
        assertThat(candidate(0)).matches("[0-9a-z]{16}");
        new LabelGenerator(PREFIX, SUBTASK, candidate(0)); // accepted as a run id
        assertThat(RunId.derived(JOB, List.of("runa", "runb"), CHECKPOINT, SUBTASK, 0))
                .isEqualTo(candidate(0));
        assertThat(List.of(candidate(1), RunId.derived("other-job", RESTORED, CHECKPOINT, SUBTASK, 0),
                RunId.derived(JOB, List.of("runa"), CHECKPOINT, SUBTASK, 0),
                RunId.derived(JOB, RESTORED, CHECKPOINT + 1, SUBTASK, 0),
                RunId.derived(JOB, RESTORED, CHECKPOINT, SUBTASK + 1, 0)))
                .doesNotContain(candidate(0)).doesNotHaveDuplicates();
    }

    @Test
    void theFirstCandidateIsTakenWhenNoEarlierAttemptUsedIt() {
        assertThat(claim()).isEqualTo(candidate(0));
    }

    @Test
    void anEarlierAttemptsCandidateIsSkippedAndWhatItLeftOpenIsRolledBack() throws Exception {
        TransactionRef prepared = begin(candidate(0), CHECKPOINT + 1);
        client.prepare(prepared);
        TransactionRef open = begin(candidate(0), CHECKPOINT + 2);
        TransactionRef secondAttempt = begin(candidate(1), CHECKPOINT + 1);

        assertThat(claim()).isEqualTo(candidate(2));

        assertThat(state(prepared)).isEqualTo(TransactionStatus.ABORTED);
        assertThat(state(open)).isEqualTo(TransactionStatus.ABORTED);
        assertThat(state(secondAttempt)).isEqualTo(TransactionStatus.ABORTED);
    }

    @Test
    void aStatelessRestartDoesNotReuseTheRunIdOfARunWhoseFirstLabelCameManyCheckpointsLate() throws Exception {
        String runA = claim(); // job A, started from CHECKPOINT
        assertThat(runA).isEqualTo(candidate(0));
        // A's first row arrives only after 20 checkpoints; it commits that checkpoint's transaction
        TransactionRef committed = begin(runA, CHECKPOINT + 20);
        client.prepare(committed);
        client.commit(committed);

        String runB = claim(); // job B: same job id, same start, no knowledge of A

        assertThat(runB).as("B must not name its checkpoint %d transaction like A's committed one",
                CHECKPOINT + 20).isNotEqualTo(runA).isEqualTo(candidate(1));
        assertThat(state(committed)).isEqualTo(TransactionStatus.VISIBLE);
    }

    @Test
    void aCommittedCandidateIsSkippedAndLeftAlone() throws Exception {
        TransactionRef committed = begin(candidate(0), CHECKPOINT + 1);
        client.prepare(committed);
        client.commit(committed);

        assertThat(claim()).isEqualTo(candidate(1));
        assertThat(state(committed)).isEqualTo(TransactionStatus.VISIBLE);
    }

    @Test
    void withoutAFixedTableTheRunIdIsRandom() {
        String runId = RunIdClaim.claim(client, LingeringTransactionAborter.forCheckNum(client, -1), PREFIX,
                SUBTASK, JOB, RESTORED, CHECKPOINT, List.of(), Set.of());

        assertThat(runId).isNotEqualTo(candidate(0)).matches("[0-9a-z]{1,24}");
    }
}
