package io.lockstep.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.assemble.CommittedSourcePositions;
import io.lockstep.app.assemble.DebeziumTransactionAssembler;
import io.lockstep.app.assemble.TransactionAssembler;
import io.lockstep.app.kafka.EmbeddedKafka;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.app.rebuild.CrossTopicRebuild;
import io.lockstep.e2e.check.AtomicityReader;
import io.lockstep.e2e.check.TableContents;
import io.lockstep.e2e.resend.PublisherWaits;
import io.lockstep.e2e.resend.StoredOffsets;
import io.lockstep.e2e.resend.TopicReader;
import io.lockstep.e2e.resend.TopicRecord;
import io.lockstep.e2e.source.DebeziumConnectors;
import io.lockstep.e2e.source.PostgresServer;
import io.lockstep.e2e.source.PublisherProcess;
import io.lockstep.e2e.workload.OltpSchema;
import io.lockstep.e2e.workload.OltpSchema.Table;
import io.lockstep.e2e.workload.OltpWorkload;
import io.lockstep.e2e.workload.TxnLedger;
import io.lockstep.emulator.StarRocksEmulator;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once end to end from Debezium's default topic layout (docs/sources.md, "Debezium's default layout: one topic
 * per table"), across a Debezium crash and a restart of the job: PostgreSQL → Debezium 3.6.1's PostgreSQL connector in
 * a publisher JVM of its own ({@link PublisherProcess}: transaction metadata on, <b>no</b> {@code RegexRouter}, offsets
 * in a file flushed every 60 s, {@code max.batch.size=20}) → one Kafka topic per table, each created beforehand with
 * {@value #TABLE_PARTITIONS} partitions (the events of a table spread over them by primary key), and the transaction
 * topic {@code <prefix>.transaction} with one partition → {@code lockstep run} in its default mode (exactly-once
 * across tables) with {@code --topic <the table topics> --transaction-topic <prefix>.transaction}, which rebuilds each
 * source transaction from the table topics, on a MiniCluster → the StarRocks-compatible emulator. The four PRIMARY KEY
 * tables of {@link OltpSchema} plus the transaction log {@link OltpSchema#TXN_LOG}, a DUPLICATE KEY table in the
 * target, into which every source transaction inserts one row.
 *
 * <p>The run, as in {@link DebeziumResendEndToEndIT}: an opening transaction larger than a batch makes the engine's
 * first offset flush land inside it; three concurrent sessions ({@link OltpWorkload}: commit order is not xid order)
 * commit without a pause long enough for an idle poll; the publisher is killed with {@code SIGKILL} as soon as a table
 * topic shows the workload's large transaction, far past its last offset flush, and started again from the same
 * offset file and replication slot, so it publishes again, into every topic, everything after that flush. Three more
 * sessions commit while it is down and after it is back. Then, mid-stream (the restarted publisher streaming, the
 * transactions it re-sends and those committed while it was down not yet loaded), the job is cancelled and a new
 * {@code lockstep run} started without Flink state: it resumes each table partition and the transaction topic from
 * the offsets the progress table committed with the data (the covered offsets of the table partitions,
 * docs/exactly-once.md) and drops what was loaded already by the committed source commit position.
 *
 * <p>It asserts: the topics are Debezium's default layout (data events only in the table topics, BEGIN/END only in the
 * transaction topic, every table topic's events spread over more than one partition); records were re-sent, data
 * events and transaction records both; the first job ran until it was cancelled, mid-stream; the new job runs and
 * loaded everything; the DUPLICATE KEY log holds each source row exactly once (at the restart: no transaction twice;
 * at the end: row by row equal to the source); every PRIMARY KEY table equals its source table value by value; a
 * reader polling the target every 100 ms across both jobs never saw a key's {@code txn_id} go back nor a transaction
 * partly ({@link AtomicityReader}). One summary line says how many transactions, records and re-sent records, how the
 * events spread over the partitions, and the new job's counters.
 */
class DebeziumTopicPerTableEndToEndIT {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).setConfiguration(RestJobMetrics.configuration())
            .build());

    private static final String PREFIX = "pertable";
    private static final String SLOT = "lockstep_pertable";
    private static final List<String> TABLES = List.of("public.customers", "public.orders", "public.order_items",
            "public.documents", "public.txn_log");
    /** Partitions of each table topic (the transaction topic has one). */
    private static final int TABLE_PARTITIONS = 3;
    private static final long FLUSH_INTERVAL_MS = 60_000;
    private static final int MAX_BATCH = 20;
    /** Customers of the opening transaction (with its log row: more change events than one batch). */
    private static final int OPENING_ROWS = 30;
    private static final int LARGE_TRANSACTION_ROWS = 200;
    /** The kill comes when a table topic shows an event this far into a transaction: only the large one has it. */
    private static final int KILL_AT_TOTAL_ORDER = 60;
    /** Pause after each commit, per session: spreads each workload over a few seconds. */
    private static final long PAUSE_MS = 40;
    /** Transactions the first job must have loaded before it is cancelled (so the progress table holds offsets). */
    private static final long LOADED_BEFORE_JOB_RESTART = 20;
    /** The assembler's counters: transactions emitted, re-sent transactions dropped, repeated events dropped. */
    private static final String EMITTED_METRIC = TransactionAssembler.SOURCE_TRANSACTIONS_METRIC;
    private static final String RESENT_METRIC = CommittedSourcePositions.RESENT_METRIC;
    private static final String REPEATED_EVENTS_METRIC = DebeziumTransactionAssembler.DUPLICATES_METRIC;
    /** The rebuild's counter: re-sent data events (and events read again) it dropped. */
    private static final String REBUILD_RESENT_METRIC = CrossTopicRebuild.RESENT_DROPPED_METRIC;

    @Test
    void aCrashedDebeziumResendsIntoTheTableTopicsAndARestartedJobResumesFromTheProgressTable(@TempDir Path dir,
            @InjectClusterClient ClusterClient<?> flink) throws Exception {
        long startNanos = System.nanoTime();
        try (PostgresServer postgres = PostgresServer.start(); EmbeddedKafka kafka = EmbeddedKafka.start()) {
            List<String> ddl = new ArrayList<>(OltpSchema.sourceDdl(OltpSchema.Dialect.POSTGRES));
            ddl.add(OltpSchema.txnLogSourceDdl());
            postgres.execute(ddl);
            List<String> tableTopics = TABLES.stream().map(t -> DebeziumConnectors.tableTopic(PREFIX, t)).toList();
            String transactionTopic = DebeziumConnectors.transactionTopic(PREFIX);
            for (String topic : tableTopics) {
                kafka.createTopic(topic, TABLE_PARTITIONS);
            }
            kafka.createTopic(transactionTopic, 1);
            List<String> allTopics = new ArrayList<>(tableTopics);
            allTopics.add(transactionTopic);
            Path offsetFile = dir.resolve("offsets.dat");
            Properties connector = PublisherProcess.withFileOffsets(DebeziumConnectors.defaultLayout(
                    DebeziumConnectors.postgres(postgres.port(), PREFIX, SLOT, String.join(",", TABLES), true)),
                    offsetFile, FLUSH_INTERVAL_MS);
            connector.setProperty("max.batch.size", Integer.toString(MAX_BATCH));
            String[] input = {"--topic", String.join(",", tableTopics), "--transaction-topic", transactionTopic};
            String groupId = "it-" + PREFIX;
            TxnLedger ledger = new TxnLedger();
            try (StarRocksEmulator target = StarRocksEmulator.builder()
                    .ddl(OltpSchema.targetDdl() + OltpSchema.txnLogTargetDdl()).build().start();
                    TopicReader topics = TopicReader.allPartitions(kafka.bootstrapServers(), allTopics)) {
                CompletableFuture<String> job = CompletableFuture.supplyAsync(
                        () -> EndToEndChecks.runJob(kafka.bootstrapServers(), target, groupId, input));
                AtomicityReader reader = new AtomicityReader(target, ledger);
                PublisherProcess first = PublisherProcess.start(connector, kafka.bootstrapServers(), dir, "first");
                PublisherProcess second = null;
                Map<TopicPartition, Long> restartOffsets;
                String lastFlush;
                long committedWhileDown;
                long loadedBeforeRestart = -1;
                long committedAtRestart = -1;
                List<String> logAtRestart = List.of();
                Map<String, Long> progressAtRestart = Map.of();
                List<String> regressionsAtRestart = List.of();
                String firstJobEndedBeforeTheRestart = null;
                String loadFailure = null;
                List<String> jobStates = List.of();
                Map<String, Long> metrics = Map.of();
                try {
                    PublisherWaits.streaming(postgres, SLOT, first);
                    // the job reads as the publisher writes (the restart below comes mid-stream); nothing was
                    // published yet, so the publisher's idle polls have no offset to flush meanwhile
                    EndToEndChecks.awaitJobRunning(flink, job);
                    EndToEndChecks.opening(postgres, ledger, OPENING_ROWS);
                    PublisherWaits.until(() -> StoredOffsets.readIfFlushed(offsetFile) != null, first,
                            "the first offset flush");
                    reader.start();
                    // no pause between the flush and the workload: an idle poll would flush again
                    CompletableFuture<Void> beforeKill = EndToEndChecks.runAsync(new OltpWorkload(postgres::connect,
                            OltpSchema.Dialect.POSTGRES, ledger, 3, 30, LARGE_TRANSACTION_ROWS, 37L).withTxnLog()
                            .sessions(1, PAUSE_MS));
                    PublisherWaits.until(() -> topics.pollNew().stream()
                            .anyMatch(r -> r.totalOrder() >= KILL_AT_TOTAL_ORDER), first,
                            "the large transaction in its table topics");
                    first.kill();
                    long committedAtKill = ledger.transactions();
                    restartOffsets = topics.endOffsets();
                    lastFlush = StoredOffsets.readSingle(offsetFile).toString();
                    // three more sessions commit while the publisher is down and after it is back
                    CompletableFuture<Void> afterKill = EndToEndChecks.runAsync(new OltpWorkload(postgres::connect,
                            OltpSchema.Dialect.POSTGRES, ledger, 3, 20, 0, 38L).withTxnLog().sessions(4, PAUSE_MS));
                    second = PublisherProcess.start(connector, kafka.bootstrapServers(), dir, "second");
                    PublisherWaits.streaming(postgres, SLOT, second);
                    committedWhileDown = ledger.transactions() - committedAtKill;

                    // mid-stream: the restarted publisher re-sends; stop the job and start a new one from the
                    // progress table only (no checkpoint, no savepoint)
                    CompletableFuture<String> firstJob = job;
                    PublisherWaits.until(() -> firstJob.isDone()
                            || EndToEndChecks.loggedTransactions(target) >= LOADED_BEFORE_JOB_RESTART, second,
                            LOADED_BEFORE_JOB_RESTART + " transactions loaded by the first job");
                    firstJobEndedBeforeTheRestart = job.isDone() ? job.join() : null;
                    EndToEndChecks.cancelJobs(flink);
                    job.get(60, TimeUnit.SECONDS);
                    committedAtRestart = ledger.transactions();
                    loadedBeforeRestart = EndToEndChecks.loggedTransactions(target);
                    logAtRestart = EndToEndChecks.targetLog(target);
                    progressAtRestart = progressPositions(target);
                    regressionsAtRestart = reader.versionRegressions();
                    job = CompletableFuture.supplyAsync(
                            () -> EndToEndChecks.runJob(kafka.bootstrapServers(), target, groupId, input));

                    beforeKill.get(60, TimeUnit.SECONDS);
                    afterKill.get(60, TimeUnit.SECONDS);
                    loadFailure = EndToEndChecks.awaitLoaded(job, postgres::connect, target, ledger.transactions());
                    jobStates = flink.listJobs().get().stream().filter(j -> !j.getJobState().isGloballyTerminalState())
                            .map(j -> j.getJobState().name()).toList();
                    if (loadFailure == null) {
                        metrics = new RestJobMetrics(flink.getWebInterfaceURL()).await(EMITTED_METRIC, RESENT_METRIC,
                                REPEATED_EVENTS_METRIC, REBUILD_RESENT_METRIC);
                    }
                } finally {
                    reader.stop();
                    EndToEndChecks.cancelJobs(flink);
                    first.kill();
                    if (second != null) {
                        second.close();
                    }
                    PublisherWaits.keepLogs("topic-per-table-e2e-logs", first, second);
                }
                reader.checkOnce();

                // every transaction loaded means every END was published, and so every re-sent record before it
                List<TopicRecord> records = topics.readAll();
                Resent resent = Resent.count(records, restartOffsets);
                Map<String, Map<Integer, Long>> spread = new TreeMap<>();
                records.forEach(r -> spread.computeIfAbsent(r.topic(), t -> new TreeMap<>())
                        .merge(r.partition(), 1L, Long::sum));
                String newJob = loadFailure != null ? loadFailure.strip() : String.format("running, %d transactions "
                        + "emitted, %d re-sent transactions dropped, %d repeated events dropped; the rebuild dropped "
                        + "%d re-sent events", metrics.get(EMITTED_METRIC), metrics.get(RESENT_METRIC),
                        metrics.get(REPEATED_EVENTS_METRIC), metrics.get(REBUILD_RESENT_METRIC));
                System.out.printf("Debezium default layout end to end: %d source transactions (%d committed while "
                        + "the publisher was down), %d Kafka records in %d topics, per partition %s; re-sent %d data "
                        + "events and %d transaction records; last offset flush before the kill %s; first job "
                        + "cancelled with %d of %d transactions loaded, progress rows then %s; new job: %s; reader: %d "
                        + "snapshots, %d keys followed; %d ms%n", ledger.transactions(), committedWhileDown,
                        records.size(), allTopics.size(), spread, resent.data(), resent.transactionRecords(), lastFlush,
                        loadedBeforeRestart, committedAtRestart, progressAtRestart, newJob, reader.snapshots(),
                        reader.keysFollowed(), (System.nanoTime() - startNanos) / 1_000_000);

                // Debezium's default layout, as the job read it
                assertThat(kafka.partitionCounts(allTopics)).as("partitions per topic")
                        .containsAllEntriesOf(tableTopics.stream().collect(Collectors.toMap(t -> t,
                                t -> TABLE_PARTITIONS))).containsEntry(transactionTopic, 1);
                assertThat(records).as("data events only in the table topics, BEGIN/END only in the transaction topic")
                        .allMatch(r -> r.topic().equals(transactionTopic)
                                ? r.kind() == TopicRecord.Kind.BEGIN || r.kind() == TopicRecord.Kind.END
                                : r.kind() == TopicRecord.Kind.DATA || r.kind() == TopicRecord.Kind.TOMBSTONE);
                assertThat(tableTopics).as("table topics whose events use more than one partition (%s)", spread)
                        .allMatch(t -> spread.getOrDefault(t, Map.of()).size() > 1);
                assertThat(resent.data()).as("data events the restarted publisher sent again").isPositive();
                assertThat(resent.transactionRecords()).as("BEGIN/END records it sent again").isPositive();

                // the restart of the job came mid-stream, and what was loaded by then was loaded once
                assertThat(firstJobEndedBeforeTheRestart).as("the first job, ended before it was cancelled").isNull();
                assertThat(loadedBeforeRestart).as("transactions loaded when the first job was cancelled")
                        .isLessThan(committedAtRestart);
                assertThat(logAtRestart).as("the log when the first job was cancelled: no transaction twice")
                        .doesNotHaveDuplicates();
                assertThat(regressionsAtRestart).as("keys seen going back before the restart").isEmpty();
                // where the new job resumed: the covered offsets of the table partitions, the transaction topic's
                // offset and the rebuilt position, committed with the data
                assertThat(progressAtRestart.keySet()).as("progress rows when the first job was cancelled")
                        .contains(transactionTopic + "/0", transactionTopic + "+rebuilt/0");
                assertThat(progressAtRestart.keySet().stream().filter(k -> tableTopics.stream()
                        .anyMatch(t -> k.startsWith(t + "/")))).as("table partitions with a committed covered offset")
                        .hasSizeGreaterThanOrEqualTo(TABLE_PARTITIONS);

                // after the restart: everything loaded once, value by value, and never a key going back
                assertThat(loadFailure).as("the new job running and loading every source transaction").isNull();
                assertThat(jobStates).as("the job's state once everything was loaded").containsExactly("RUNNING");
                assertThat(reader.brokenTransactions()).as("transactions seen partly; first: %s",
                        reader.firstViolation()).isEmpty();
                assertThat(reader.versionRegressions()).as("keys seen going back").isEmpty();
                assertThat(reader.snapshots()).isGreaterThan(10);
                try (Connection source = postgres.connect()) {
                    assertThat(EndToEndChecks.targetLog(target))
                            .as("the DUPLICATE KEY log: each source row exactly once")
                            .isEqualTo(EndToEndChecks.sourceLog(source));
                    for (Table table : OltpSchema.TABLES) {
                        assertThat(TableContents.target(target, table)).as("table %s", table.name())
                                .containsExactlyEntriesOf(TableContents.source(source, table));
                    }
                }
                // the new job's own account: at least every transaction the first job had not loaded (more when
                // its sink committed the first job's prepared transactions at its start: their originals are read
                // again)
                assertThat(metrics.get(EMITTED_METRIC)).as("transactions the new job's assembler emitted")
                        .isGreaterThanOrEqualTo(ledger.transactions() - loadedBeforeRestart);
            }
        }
    }

    /**
     * @return the positions the progress table holds for this job's sources, per {@code topic/partition} (a topic's
     *     id, {@code #<id>}, left out), without Lockstep's own rows (run registrations, commit positions)
     */
    private static Map<String, Long> progressPositions(StarRocksEmulator target) {
        Map<String, Long> positions = new TreeMap<>();
        for (List<Object> row : target.query("SELECT source, source_partition, position FROM "
                + OltpSchema.TARGET_DATABASE + "." + ProgressTable.DEFAULT_NAME).rows()) {
            String source = (String) row.get(0);
            if (source.startsWith("#")) {
                continue;
            }
            int id = source.indexOf('#');
            positions.put((id < 0 ? source : source.substring(0, id)) + "/" + row.get(1),
                    ((Number) row.get(2)).longValue());
        }
        return positions;
    }

    /**
     * The records the restarted publisher sent again: those at or after a partition's end offset at the kill that
     * repeat a record the killed run wrote into the same topic ({@link TopicRecord#identity()}: same transaction,
     * order, position and row images; BEGIN/END but their time stamp). Tombstones are not counted.
     *
     * @param data re-sent change events (table topics)
     * @param transactionRecords re-sent BEGIN and END records (the transaction topic)
     */
    private record Resent(long data, long transactionRecords) {

        static Resent count(List<TopicRecord> records, Map<TopicPartition, Long> restartOffsets) {
            Set<String> beforeKill = new HashSet<>();
            List<TopicRecord> afterKill = new ArrayList<>();
            for (TopicRecord r : records) {
                if (r.kind() == TopicRecord.Kind.TOMBSTONE) {
                    continue;
                }
                if (r.offset() < restartOffsets.get(new TopicPartition(r.topic(), r.partition()))) {
                    beforeKill.add(identity(r));
                } else {
                    afterKill.add(r);
                }
            }
            long data = 0;
            long transactionRecords = 0;
            for (TopicRecord r : afterKill) {
                if (beforeKill.contains(identity(r))) {
                    if (r.kind() == TopicRecord.Kind.DATA) {
                        data++;
                    } else {
                        transactionRecords++;
                    }
                }
            }
            return new Resent(data, transactionRecords);
        }

        private static String identity(TopicRecord r) {
            return r.topic() + " " + r.kind() + " " + r.identity();
        }
    }
}
