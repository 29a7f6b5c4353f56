package io.lockstep.core.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lockstep.core.client.FailureClass;
import io.lockstep.core.client.StarRocksSqlClient;
import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.label.RunId;
import io.lockstep.core.restart.ProgressOpening;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.core.time.Ticker;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.fault.OpHold;
import io.lockstep.emulator.txn.TransactionStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The multi-table exactly-once mode end to end in the core (no Flink) against the emulator: a run is killed in the
 * worst places (shared transaction open with loaded data, commit in flight, commit reply lost, publish timeout), a
 * new run settles what the old one left, reads the committed positions and replays every source transaction from
 * the start; the tables then hold each transaction exactly once (the DUPLICATE KEY log shows any replay twice).
 */
@Timeout(60)
class MultiTableExactlyOnceTest {
    private static final int ORDERS = 40;
    private StarRocksEmulator sr;
    private final InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private int attempts;

    @BeforeEach
    void start() throws Exception {
        sr = StarRocksEmulator.builder().ddl(EoShop.DDL).publishDelayMs(300).build();
        sr.start();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
        sr.close();
    }

    /** A run of subtask 0 in a new attempt, on the real clock, with a short grace for open labels. */
    private EoShop.Run newAttempt(long commitIntervalMs) throws Exception {
        return newAttempt(commitIntervalMs, 300);
    }

    private EoShop.Run newAttempt(long commitIntervalMs, long graceMs) throws Exception {
        String key = String.format("att%07d", attempts++);
        EoShop.Run run = EoShop.open(sr, key, 0, commitIntervalMs, graceMs, Ticker.system(), metrics);
        toClose.add(run);
        return run;
    }

    @Test
    void aKillMidCommitWhoseCommitLandsAfterwardsIsFoundCommittedAndNotReplayed() throws Exception {
        EoShop.Run first = newAttempt(60_000); // only flushes commit
        first.write(0, 20);
        first.engine.flush();
        first.write(20, 30);
        OpHold commit = sr.faults().hold(FaultOp.COMMIT);
        first.engine.requestFlush(); // loads 20..29 under the next shared label and commits it ...
        assertThat(commit.awaitArrived(10, TimeUnit.SECONDS)).isTrue();
        String inFlight = first.engine.currentTransaction().label();
        first.kill(); // ... the process dies while the commit is on its way
        commit.release(); // the server applies it after the kill
        await().atMost(Duration.ofSeconds(10)).until(() -> sr.labelState("shop", inFlight).isFinal());

        EoShop.Run second = newAttempt(100);
        assertThat(second.opened.settledRuns()).containsExactly(first.runId);
        assertThat(second.opened.positions().of(new SourcePartition(EoShop.SOURCE, 1))).hasValue(29);
        second.write(0, ORDERS); // a replay from the very beginning
        second.engine.flush();

        EoShop.assertExactlyOnce(sr, ORDERS);
        assertThat(metrics.count(MetricNames.SOURCE_TRANSACTIONS_SKIPPED)).isEqualTo(30);
    }

    @Test
    void anOpenSharedTransactionLeftBehindIsRolledBackByTheNextRun() throws Exception {
        EoShop.Run first = newAttempt(60_000);
        first.write(0, 20);
        first.engine.flush();
        first.write(20, 30); // loaded by the manager thread once idle, never committed
        await().atMost(Duration.ofSeconds(10)).until(() -> first.engine.bufferedBytes() == 0);
        String open = first.engine.currentTransaction().label();
        assertThat(sr.labelState("shop", open)).isEqualTo(TransactionStatus.PREPARE);
        first.kill();
        assertThat(sr.labelState("shop", open)).as("a kill rolls nothing back").isEqualTo(TransactionStatus.PREPARE);

        EoShop.Run second = newAttempt(100);
        assertThat(sr.labelState("shop", open)).as("rolled back at open").isEqualTo(TransactionStatus.ABORTED);
        assertThat(second.opened.settledRuns()).containsExactly(first.runId);
        second.write(0, ORDERS);
        second.engine.flush();

        EoShop.assertExactlyOnce(sr, ORDERS);
        assertThat(EoShop.committed(sr, 0)).isEqualTo(38);
        assertThat(EoShop.committed(sr, 1)).isEqualTo(39);
        assertThat(metrics.count(MetricNames.SOURCE_TRANSACTIONS_SKIPPED)).isEqualTo(20);
    }

    @Test
    void aCommitWhoseReplyIsLostAndThenTheProcessDiesIsFoundCommittedAndNotReplayed() throws Exception {
        EoShop.Run first = newAttempt(60_000);
        first.write(0, 20);
        sr.faults().dropReplyNext(FaultOp.COMMIT, 1); // the commit applies, the reply never arrives
        first.engine.requestFlush();
        await().atMost(Duration.ofSeconds(10)).until(() -> sr.faults().pending(FaultOp.COMMIT) == 0);
        first.kill(); // dies before it could learn the outcome

        EoShop.Run second = newAttempt(100);
        assertThat(second.opened.positions().of(new SourcePartition(EoShop.SOURCE, 1))).hasValue(19);
        second.write(0, ORDERS);
        second.engine.flush();

        EoShop.assertExactlyOnce(sr, ORDERS);
        assertThat(metrics.count(MetricNames.SOURCE_TRANSACTIONS_SKIPPED)).isEqualTo(20);
    }

    @Test
    void aPublishTimeoutAtTheKillIsWaitedForUntilVisibleBeforePositionsAreRead() throws Exception {
        EoShop.Run first = newAttempt(60_000);
        first.write(0, 20);
        sr.faults().publishTimeoutNext(1); // COMMITTED now, VISIBLE 300 ms later
        first.engine.flush();
        String committed = new LabelGenerator("eo", 0, first.runId).sharedLabel(1);
        assertThat(sr.labelState("shop", committed)).isEqualTo(TransactionStatus.COMMITTED);
        first.kill();

        EoShop.Run second = newAttempt(100);
        assertThat(sr.labelState("shop", committed)).isEqualTo(TransactionStatus.VISIBLE);
        assertThat(second.opened.positions().of(new SourcePartition(EoShop.SOURCE, 0))).hasValue(18);
        second.write(0, ORDERS);
        second.engine.flush();
        EoShop.assertExactlyOnce(sr, ORDERS);
    }

    @Test
    void manyKillsInARowEndExactlyOnce() throws Exception {
        int end = 0;
        for (int round = 0; round < 4; round++) {
            EoShop.Run run = newAttempt(50);
            end += 10;
            run.write(0, end); // every run replays from the start
            if (round % 2 == 0) {
                run.engine.flush();
            } else {
                run.engine.requestFlush();
            }
            run.kill();
        }
        EoShop.Run last = newAttempt(50);
        last.write(0, ORDERS);
        last.engine.flush();
        EoShop.assertExactlyOnce(sr, ORDERS);
    }

    @Test
    void aSecondWriterWithTheSameJobIdIsRefusedAtOpen() throws Exception {
        EoShop.Run first = newAttempt(50);
        CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
            try {
                for (int n = 0; n < 100_000 && !Thread.currentThread().isInterrupted(); n += 2) {
                    first.write(n, n + 2); // stops with the engine's failure once its transaction is rolled back
                    Thread.sleep(5);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException expected) {
                // the engine failed or closed after the second open touched its labels
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> EoShop.committed(sr, 0) >= 0);

        // a live writer commits every 50 ms: it shows long before the grace period ends, even on a loaded machine
        assertThatThrownBy(() -> newAttempt(50, 10_000))
                .isInstanceOf(AnotherWriterException.class)
                .hasMessageContaining("job id " + EoShop.JOB)
                .hasMessageContaining(first.runId)
                .hasMessageContaining("another job with the same sink.transaction.multi-table.job-id");
        writing.cancel(true);
    }

    @Test
    void aMissingProgressTableFailsWithItsCreateTable() throws Exception {
        try (StarRocksTransactionClient client = new StarRocksTransactionClient(EoShop.clientConfig(sr), metrics);
             StarRocksSqlClient sql = new StarRocksSqlClient(EoShop.clientConfig(sr), metrics)) {
            ProgressTable missing = new ProgressTable("shop", "no_such_progress");
            ProgressOpening opening = new ProgressOpening(client, new ProgressStore(sql, missing),
                    new ProgressOpening.Params(EoShop.JOB, "eo", 0, RunId.ofAttempt("abcdefghij"), 600,
                            ProgressTable.LOAD_PROPERTIES, 100, 1000, 1000), Ticker.system(), metrics);
            assertThatThrownBy(opening::open).isInstanceOf(ProgressTableException.class)
                    .hasMessageContaining("cannot read the progress table shop.no_such_progress")
                    .hasMessageEndingWith(missing.createTableSql());
        }
    }

    @Test
    void aTargetThatCannotBeAskedIsAnOutageNotAMissingProgressTable() throws Exception {
        String feUrl = sr.feUrl();
        sr.close(); // the FE's port now refuses connections
        TransactionClientConfig down = TransactionClientConfig.builder().loadUrls(feUrl)
                .username("root").password("").maxRetries(1).retryBackoff(1, 1).build();
        try (StarRocksSqlClient sql = new StarRocksSqlClient(down, metrics)) {
            assertThatThrownBy(() -> new ProgressStore(sql, EoShop.PROGRESS).checkTable())
                    .as("a restart may outlast an outage: no CREATE TABLE advice, nothing that never heals")
                    .isExactlyInstanceOf(TransactionException.class)
                    .hasMessageContaining("CONNECTION")
                    .hasMessageNotContaining("CREATE TABLE")
                    .satisfies(e -> assertThat(((TransactionException) e).failureClass()).isNull());
        }
    }

    @Test
    void refusedCredentialsAreAccessDeniedNotAMissingProgressTable() throws Exception {
        TransactionClientConfig wrong = TransactionClientConfig.builder().loadUrls(sr.feUrl()).username("root")
                .password("wrong-password").maxRetries(1).retryBackoff(1, 1).build();
        try (StarRocksSqlClient sql = new StarRocksSqlClient(wrong, metrics)) {
            assertThatThrownBy(() -> new ProgressStore(sql, EoShop.PROGRESS).checkTable())
                    .isExactlyInstanceOf(TransactionException.class)
                    .hasMessageContaining("HTTP 401")
                    .hasMessageNotContaining("CREATE TABLE")
                    .satisfies(e -> assertThat(((TransactionException) e).failureClass())
                            .isEqualTo(FailureClass.ACCESS_DENIED));
        }
    }

    @Test
    void aProgressTableWithOtherColumnsFailsNamingThem() throws Exception {
        sr.executeDdl("CREATE TABLE shop.bad_progress (job_id VARCHAR(64) NOT NULL, source VARCHAR(255) NOT NULL, "
                + "source_partition INT NOT NULL, position VARCHAR(20)) PRIMARY KEY (job_id, source, source_partition) "
                + "DISTRIBUTED BY HASH(job_id) BUCKETS 1;");
        try (StarRocksSqlClient sql = new StarRocksSqlClient(EoShop.clientConfig(sr), metrics)) {
            ProgressTable bad = new ProgressTable("shop", "bad_progress");
            assertThatThrownBy(() -> new ProgressStore(sql, bad).checkTable())
                    .isInstanceOf(ProgressTableException.class)
                    .hasMessageContaining("progress table shop.bad_progress has the columns [job_id varchar, source "
                            + "varchar, source_partition int(11), position varchar]")
                    .hasMessageContaining(bad.createTableSql());
        }
    }

    @Test
    void aLaggingFollowerIsReadAgainUntilItShowsTheRegistration() throws Exception {
        EoShop.Run first = newAttempt(60_000);
        first.write(0, 10);
        first.engine.flush();
        first.close();
        // the next reads of the job's rows answer the state from before the next registration
        RecordingTicker ticker = new RecordingTicker();
        sr.sql().answerStale(4);
        EoShop.Run second = EoShop.open(sr, "lagging001", 0, 100, 300, ticker, metrics);
        toClose.add(second);
        // stale answers: the table probe, then three reads that do not show the registration yet (backoff 50, 100,
        // 200); then the first run is watched for the grace period (300 ms, in steps of at most 200 ms)
        assertThat(ticker.sleeps).as("read again with backoff, then the grace period")
                .containsExactly(50L, 100L, 200L, 200L, 100L);
        assertThat(second.opened.positions().of(new SourcePartition(EoShop.SOURCE, 1))).hasValue(9);

        sr.sql().answerStale(1_000);
        RecordingTicker slow = new RecordingTicker();
        assertThatThrownBy(() -> EoShop.open(sr, "lagging002", 0, 100, 300, slow, metrics))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining("does not show this run's registration label")
                .hasMessageContaining("the FE that answers lags behind");
        assertThat(slow.nowMs).isGreaterThanOrEqualTo(2_000);
    }

    /** A ticker that never waits: it records each sleep and advances its own clock. */
    static final class RecordingTicker implements Ticker {
        final List<Long> sleeps = new ArrayList<>();
        long nowMs;

        @Override
        public long nowMs() {
            return nowMs;
        }

        @Override
        public void sleep(long ms) {
            sleeps.add(ms);
            nowMs += ms;
        }
    }
}
