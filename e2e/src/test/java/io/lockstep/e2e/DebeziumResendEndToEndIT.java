package io.lockstep.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.assemble.CommittedSourcePositions;
import io.lockstep.app.assemble.DebeziumTransactionAssembler;
import io.lockstep.app.assemble.TransactionAssembler;
import io.lockstep.app.kafka.EmbeddedKafka;
import io.lockstep.e2e.check.AtomicityReader;
import io.lockstep.e2e.resend.PublisherWaits;
import io.lockstep.e2e.resend.ResendShapes;
import io.lockstep.e2e.resend.StoredOffsets;
import io.lockstep.e2e.resend.TopicReader;
import io.lockstep.e2e.resend.TopicRecord;
import io.lockstep.e2e.source.DebeziumConnectors;
import io.lockstep.e2e.source.PostgresServer;
import io.lockstep.e2e.source.PublisherProcess;
import io.lockstep.e2e.workload.OltpSchema;
import io.lockstep.e2e.workload.OltpWorkload;
import io.lockstep.e2e.workload.TxnLedger;
import io.lockstep.emulator.StarRocksEmulator;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once end to end across a Debezium crash: PostgreSQL → Debezium 3.6.1's PostgreSQL connector in a publisher
 * JVM of its own ({@link PublisherProcess}: transaction metadata, one routed topic, offsets in a file flushed every
 * 60 s, {@code max.batch.size=20}) → Kafka → {@code lockstep run} in its default mode (exactly-once across tables)
 * on a MiniCluster, running the whole time → the StarRocks-compatible emulator. The four PRIMARY KEY tables of
 * {@link OltpSchema} plus the transaction log {@link OltpSchema#TXN_LOG}, a DUPLICATE KEY table in the target, into
 * which every source transaction inserts one row.
 *
 * <p>The run: the publisher starts streaming; an opening transaction larger than a batch makes the engine's first
 * offset flush (its first batch) land inside it; three concurrent sessions ({@link OltpWorkload}, so xid order is not
 * commit order) commit transactions without a pause long enough for an idle poll (which would flush again), and the
 * publisher is killed with {@code SIGKILL} as soon as the topic shows the workload's large transaction: everything
 * published since the flush is published again by the publisher started from the same offset file and replication
 * slot. Three more sessions start right after the kill, so transactions commit while the publisher is down and after
 * it is back.
 *
 * <p>Two runs: in one the job runs the whole time (its keyed state drops the re-sends); in the other it is cancelled
 * right after the kill and a new job, without Flink state, is started once every re-sent record is in the topic: it
 * knows what was loaded only from the progress table (the Kafka offsets and the source commit positions committed
 * with the data, docs/exactly-once.md).
 *
 * <p>It asserts: records were re-sent (counted over the whole topic with {@link ResendShapes}); the job still runs
 * and loaded everything; the DUPLICATE KEY log holds each source row exactly once (row by row, value by value); every
 * PRIMARY KEY table equals its source table value by value; a reader polling the target every 100 ms never saw a
 * transaction partly nor a key's {@code txn_id} go back ({@link AtomicityReader}); the assembler's counters, read
 * through Flink's REST API ({@link RestJobMetrics}), say at least every whole re-send was dropped and, while one job
 * runs throughout, every source transaction was emitted once. One summary line says how many transactions, re-sent
 * records, which re-send shapes, and the job's counters.
 */
class DebeziumResendEndToEndIT {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).setConfiguration(RestJobMetrics.configuration())
            .build());

    private static final String PREFIX = "resend";
    private static final String SLOT = "lockstep_resend";
    private static final long FLUSH_INTERVAL_MS = 60_000;
    private static final int MAX_BATCH = 20;
    /** Customers of the opening transaction (with its log row: more change events than one batch). */
    private static final int OPENING_ROWS = 30;
    private static final int LARGE_TRANSACTION_ROWS = 200;
    /** The kill comes when the topic shows an event this far into a transaction: only the large one has it. */
    private static final int KILL_AT_TOTAL_ORDER = 60;
    /** Pause after each commit, per session: spreads each workload over a few seconds. */
    private static final long PAUSE_MS = 40;
    private static final String TABLES = "public.customers,public.orders,public.order_items,public.documents,"
            + "public.txn_log";
    /** The assembler's counters: transactions emitted, re-sent transactions dropped, repeated events dropped. */
    private static final String EMITTED_METRIC = TransactionAssembler.SOURCE_TRANSACTIONS_METRIC;
    private static final String RESENT_METRIC = CommittedSourcePositions.RESENT_METRIC;
    private static final String REPEATED_EVENTS_METRIC = DebeziumTransactionAssembler.DUPLICATES_METRIC;

    @Test
    void aCrashedDebeziumResendsWhileTheJobRunsAndTheTargetHoldsEachSourceTransactionOnce(@TempDir Path dir,
            @InjectClusterClient ClusterClient<?> flink) throws Exception {
        crashAndResend(dir, flink, false);
    }

    @Test
    void aJobStartedAfterTheResendDropsItByTheCommittedSourcePositions(@TempDir Path dir,
            @InjectClusterClient ClusterClient<?> flink) throws Exception {
        crashAndResend(dir, flink, true);
    }

    /**
     * @param jobRestarts whether the job is cancelled right after the kill and a new one (without Flink state: only
     *     what the progress table committed) started once every re-sent record is in the topic; otherwise the job
     *     runs the whole time
     */
    private static void crashAndResend(Path dir, ClusterClient<?> flink, boolean jobRestarts) throws Exception {
        long startNanos = System.nanoTime();
        try (PostgresServer postgres = PostgresServer.start(); EmbeddedKafka kafka = EmbeddedKafka.start()) {
            List<String> ddl = new ArrayList<>(OltpSchema.sourceDdl(OltpSchema.Dialect.POSTGRES));
            ddl.add(OltpSchema.txnLogSourceDdl());
            postgres.execute(ddl);
            String topic = DebeziumConnectors.combinedTopic(PREFIX);
            kafka.createTopic(topic, 1);
            Path offsetFile = dir.resolve("offsets.dat");
            Properties connector = PublisherProcess.withFileOffsets(
                    DebeziumConnectors.postgres(postgres.port(), PREFIX, SLOT, TABLES, true), offsetFile,
                    FLUSH_INTERVAL_MS);
            connector.setProperty("max.batch.size", Integer.toString(MAX_BATCH));
            TxnLedger ledger = new TxnLedger();
            try (StarRocksEmulator target = StarRocksEmulator.builder()
                    .ddl(OltpSchema.targetDdl() + OltpSchema.txnLogTargetDdl()).build().start();
                    TopicReader topicReader = new TopicReader(kafka.bootstrapServers(), topic)) {
                CompletableFuture<String> job = CompletableFuture.supplyAsync(
                        () -> EndToEndChecks.runJob(kafka.bootstrapServers(), topic, target));
                AtomicityReader reader = new AtomicityReader(target, ledger);
                PublisherProcess first = PublisherProcess.start(connector, kafka.bootstrapServers(), dir, "first");
                PublisherProcess second = null;
                long restartOffset;
                String lastFlush;
                long committedWhileDown;
                Map<String, Long> metrics = Map.of();
                String loadFailure = null;
                List<String> jobStates = List.of();
                long loadedBeforeRestart = -1;
                String firstJobEndedBeforeTheKill = null;
                try {
                    PublisherWaits.streaming(postgres, SLOT, first);
                    EndToEndChecks.opening(postgres, ledger, OPENING_ROWS);
                    PublisherWaits.until(() -> StoredOffsets.readIfFlushed(offsetFile) != null, first,
                            "the first offset flush");
                    reader.start();
                    // no pause between the flush and the workload: an idle poll would flush again
                    CompletableFuture<Void> beforeKill = EndToEndChecks.runAsync(new OltpWorkload(postgres::connect,
                            OltpSchema.Dialect.POSTGRES, ledger, 3, 30, LARGE_TRANSACTION_ROWS, 27L).withTxnLog()
                            .sessions(1, PAUSE_MS));
                    PublisherWaits.until(() -> topicReader.pollNew().stream()
                            .anyMatch(r -> r.totalOrder() >= KILL_AT_TOTAL_ORDER), first,
                            "the large transaction in the topic");
                    first.kill();
                    long committedAtKill = ledger.transactions();
                    restartOffset = topicReader.endOffset();
                    lastFlush = StoredOffsets.readSingle(offsetFile).toString();
                    if (jobRestarts) {
                        firstJobEndedBeforeTheKill = job.isDone() ? job.join() : null;
                        EndToEndChecks.cancelJobs(flink);
                        job.get(60, TimeUnit.SECONDS);
                    }
                    // three more sessions commit while the publisher is down and after it is back
                    CompletableFuture<Void> afterKill = EndToEndChecks.runAsync(new OltpWorkload(postgres::connect,
                            OltpSchema.Dialect.POSTGRES, ledger, 3, 20, 0, 28L).withTxnLog().sessions(4, PAUSE_MS));
                    second = PublisherProcess.start(connector, kafka.bootstrapServers(), dir, "second");
                    PublisherWaits.streaming(postgres, SLOT, second);
                    committedWhileDown = ledger.transactions() - committedAtKill;
                    beforeKill.get(60, TimeUnit.SECONDS);
                    afterKill.get(60, TimeUnit.SECONDS);
                    // the whole topic: every transaction's END (and so every re-sent record)
                    Set<String> ended = new HashSet<>();
                    topicReader.readAll().forEach(r -> addEnd(r, ended));
                    PublisherWaits.until(() -> {
                        topicReader.pollNew().forEach(r -> addEnd(r, ended));
                        return ended.size() >= ledger.transactions();
                    }, second, "every transaction's END in the topic");
                    if (jobRestarts) {
                        loadedBeforeRestart = EndToEndChecks.loggedTransactions(target);
                        job = CompletableFuture.supplyAsync(
                                () -> EndToEndChecks.runJob(kafka.bootstrapServers(), topic, target));
                    }
                    loadFailure = EndToEndChecks.awaitLoaded(job, postgres::connect, target, ledger.transactions());
                    jobStates = flink.listJobs().get().stream().filter(j -> !j.getJobState().isGloballyTerminalState())
                            .map(j -> j.getJobState().name()).toList();
                    if (loadFailure == null) {
                        metrics = new RestJobMetrics(flink.getWebInterfaceURL()).await(EMITTED_METRIC, RESENT_METRIC,
                                REPEATED_EVENTS_METRIC);
                    }
                } finally {
                    reader.stop();
                    EndToEndChecks.cancelJobs(flink);
                    first.kill();
                    if (second != null) {
                        second.close();
                    }
                    PublisherWaits.keepLogs("resend-e2e-logs/" + (jobRestarts ? "job-restart" : "job-running"),
                            first, second);
                }
                reader.checkOnce();

                List<TopicRecord> records = topicReader.readAll();
                ResendShapes shapes = ResendShapes.classify(records, restartOffset);
                shapes.transactions().stream().filter(t -> !t.after().isEmpty() && !t.before().isEmpty())
                        .forEach(t -> System.out.println("  " + t.describe()));
                System.out.printf("Debezium re-send end to end (%s): %d source transactions (%d committed while "
                        + "the publisher was down), %d Kafka records, %d re-sent; shapes %s; last offset flush before "
                        + "the kill %s; job: %s; reader: %d snapshots, %d keys followed; %d ms%n", jobRestarts
                        ? "a new job after the re-send, " + loadedBeforeRestart + " transactions loaded before it"
                        : "the job running throughout", ledger.transactions(), committedWhileDown, records.size(),
                        shapes.resentRecords(), shapes.counts(), lastFlush,
                        loadFailure != null ? loadFailure.strip() : String.format("running, %d transactions loaded, "
                                + "%d re-sent transactions dropped, %d repeated events dropped",
                                metrics.get(EMITTED_METRIC), metrics.get(RESENT_METRIC),
                                metrics.get(REPEATED_EVENTS_METRIC)), reader.snapshots(), reader.keysFollowed(),
                        (System.nanoTime() - startNanos) / 1_000_000);

                assertThat(shapes.resentRecords()).as("records the restarted publisher sent again").isPositive();
                assertThat(firstJobEndedBeforeTheKill).as("the first job, ended before it was cancelled").isNull();
                assertThat(loadFailure).as("the job running and loading every source transaction").isNull();
                assertThat(jobStates).as("the job's state once everything was loaded").containsExactly("RUNNING");
                assertThat(shapes.outsideTransactions()).as("no snapshot reads: only the tombstones after deletes")
                        .allMatch(r -> r.kind() == TopicRecord.Kind.TOMBSTONE);
                assertThat(shapes.transactions()).as("one per source transaction").hasSize((int) ledger.transactions());
                // the sessions' interleaving: commit order (the topic's) is not xid order
                List<Long> endOrder = firstEnds(records);
                assertThat(endOrder).isNotEqualTo(endOrder.stream().sorted().toList());
                assertThat(reader.brokenTransactions()).as("transactions seen partly; first: %s",
                        reader.firstViolation()).isEmpty();
                assertThat(reader.versionRegressions()).as("keys seen going back").isEmpty();
                assertThat(reader.snapshots()).isGreaterThan(10);
                try (Connection source = postgres.connect()) {
                    assertThat(EndToEndChecks.targetLog(target))
                            .as("the DUPLICATE KEY log: each source row exactly once")
                            .isEqualTo(EndToEndChecks.sourceLog(source));
                }
                // the job's own account: every source transaction loaded once, every whole re-send dropped (a new job
                // reads every re-sent copy, as its start offsets are at most the first re-sent one's)
                if (jobRestarts) {
                    // at least every transaction the first job had not loaded; more when the new job's sink committed
                    // the first job's prepared transactions at its start (their originals are read again)
                    assertThat(metrics.get(EMITTED_METRIC)).as("transactions the new job's assembler emitted")
                            .isGreaterThanOrEqualTo(ledger.transactions() - loadedBeforeRestart);
                } else {
                    assertThat(metrics.get(EMITTED_METRIC)).as("transactions the assembler emitted")
                            .isEqualTo(ledger.transactions());
                }
                assertThat(metrics.get(RESENT_METRIC)).as("re-sent transactions the assembler dropped")
                        .isGreaterThanOrEqualTo(shapes.counts().get(ResendShapes.Shape.WHOLE_RESENT));
            }
        }
    }

    private static void addEnd(TopicRecord record, Set<String> ended) {
        if (record.kind() == TopicRecord.Kind.END) {
            ended.add(record.xid());
        }
    }

    /** @return the xids of the END records in topic order, each at its first END (its commit order) */
    private static List<Long> firstEnds(List<TopicRecord> records) {
        Set<Long> ends = new LinkedHashSet<>();
        records.stream().filter(r -> r.kind() == TopicRecord.Kind.END).forEach(r -> ends.add(Long.parseLong(r.xid())));
        return List.copyOf(ends);
    }
}
