package io.lockstep.core.restart;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.client.DorisTransactionClient;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.label.RunId;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.label.ExactlyOnceLabelScheme;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.emulator.DorisEmulator;
import io.lockstep.emulator.doris.DorisTxnStatus;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link RunIdClaim} against the emulator's Doris mode, where a transaction begins with its load: the claim marker
 * is an empty two-phase load aborted at once, so a stateless restart of a job with a pinned job id never takes the
 * run id of an earlier run whose first row came many checkpoints late, and an attempt that failed before its first
 * checkpoint is still found and cleaned up.
 */
class DorisRunIdClaimTest {
    private static final String PREFIX = "eo-doris";
    private static final String JOB = "fedcba9876543210fedcba9876543210";
    private static final int SUBTASK = 0;
    private static final TableId EVENTS = new TableId("eo", "events");
    private static final Map<String, String> JSON = Map.of("format", "json", "strip_outer_array", "true");

    private DorisEmulator doris;
    private TransactionClient client;

    @BeforeEach
    void start() throws Exception {
        doris = DorisEmulator.builder().ddl("CREATE DATABASE eo; CREATE TABLE eo.events (id INT) DUPLICATE KEY(id) "
                + "DISTRIBUTED BY HASH(id) BUCKETS 1").build().start();
        client = new DorisTransactionClient(TransactionClientConfig.builder().loadUrls(doris.feHostPort())
                .username("root").maxRetries(1).retryBackoff(1, 2).labelStateTimeoutMs(2_000).build(),
                LoadMetrics.noop());
    }

    @AfterEach
    void stop() {
        client.close();
        doris.close();
    }

    /** A start without state (checkpoint 0), as every submission of the pinned job makes it. */
    private String claimWithoutState() {
        return RunIdClaim.claim(client, LingeringTransactionAborter.forCheckNum(client, -1,
                ExactlyOnceLabelScheme.ONE_PER_FLUSH), PREFIX, SUBTASK, JOB, List.of(), 0, List.of(EVENTS), Set.of());
    }

    private static String candidate(int k) {
        return RunId.derived(JOB, List.of(), 0, SUBTASK, k);
    }

    private static String label(String runId, long checkpoint, int flush) {
        return new LabelGenerator(PREFIX, SUBTASK, runId).exactlyOnceFlushLabel("events", checkpoint, flush);
    }

    /** One pre-committed load of one row under {@code runId}'s label for {@code checkpoint} and {@code flush}. */
    private TransactionRef preCommit(String runId, long checkpoint, int flush, int id) throws TransactionException {
        TransactionRef ref = TransactionRef.singleTable("eo", "events", label(runId, checkpoint, flush));
        client.begin(ref, 600);
        client.load(ref, "events", ("[{\"id\":" + id + "}]").getBytes(StandardCharsets.UTF_8), JSON);
        return ref;
    }

    @Test
    void aStatelessRestartDoesNotReuseTheRunIdOfARunWhoseFirstRowCameManyCheckpointsLate() throws Exception {
        String runA = claimWithoutState(); // job A
        assertThat(runA).isEqualTo(candidate(0));
        assertThat(doris.labelState("eo", label(runA, 0, 1))).as("A's claim marker, aborted at once")
                .isEqualTo(DorisTxnStatus.ABORTED);
        // A's first row comes after six empty checkpoints; A commits checkpoint 7's transaction and is cancelled
        client.commit(preCommit(runA, 7, 1, 1));

        String runB = claimWithoutState(); // job B: same job id, no state

        assertThat(runB).as("B must not name its checkpoint-7 load like A's committed one").isNotEqualTo(runA)
                .isEqualTo(candidate(1));
        client.commit(preCommit(runB, 7, 1, 2)); // B's own checkpoint-7 load is not refused as already committed
        assertThat(doris.labelState("eo", label(runA, 7, 1))).isEqualTo(DorisTxnStatus.VISIBLE);
        assertThat(doris.rowCount("eo", "events")).isEqualTo(2);
    }

    @Test
    void anAttemptThatFailedBeforeItsFirstCheckpointIsStillFoundAndEnded() throws Exception {
        String first = claimWithoutState();
        TransactionRef flush1 = preCommit(first, 1, 1, 1); // two pressure flushes, then the task died
        TransactionRef flush2 = preCommit(first, 1, 2, 2);

        String second = claimWithoutState();

        assertThat(second).isEqualTo(candidate(1));
        assertThat(doris.labelState("eo", flush1.label())).isEqualTo(DorisTxnStatus.ABORTED);
        assertThat(doris.labelState("eo", flush2.label())).isEqualTo(DorisTxnStatus.ABORTED);
        assertThat(doris.labelState("eo", label(second, 0, 1))).as("the second attempt's marker")
                .isEqualTo(DorisTxnStatus.ABORTED);
        assertThat(doris.rowCount("eo", "events")).isZero();
    }
}
