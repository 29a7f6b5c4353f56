package io.lockstep.flink.sink.v2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.engine.LoadEngineException;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.emulator.DorisEmulator;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import io.lockstep.emulator.storage.QueryResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every Sink V2 mode survives a task failure mid-stream (after at least two completed checkpoints) and ends in the
 * exact expected state: at-least-once modes into key tables (a replay overwrites), exactly-once modes into DUPLICATE
 * KEY tables (a row loaded twice would show twice). The same source runs on Flink 1.20 and 2.x.
 */
class SinkV2FailoverIT {
    private static final int TXNS = 200;
    private static final int PER_CHECKPOINT = 20;
    private static final int FAIL_AT = 110;

    @RegisterExtension
    static final MiniClusterExtension FLINK = SinkV2Jobs.miniCluster();

    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder().ddl(
            "CREATE DATABASE al; CREATE TABLE al.events (id BIGINT NOT NULL, note VARCHAR(20)) PRIMARY KEY (id);"
                    + "CREATE DATABASE eo; CREATE TABLE eo.events (id BIGINT, note VARCHAR(20)) DUPLICATE KEY (id);"
                    + "CREATE DATABASE shop;"
                    + "CREATE TABLE shop.orders (order_id BIGINT NOT NULL, source_partition INT, status VARCHAR(32))"
                    + " PRIMARY KEY (order_id);"
                    + "CREATE TABLE shop.order_items (order_id BIGINT NOT NULL, line_no INT NOT NULL, "
                    + "sku VARCHAR(64), quantity INT) PRIMARY KEY (order_id, line_no);"
                    + "CREATE DATABASE eoshop;"
                    + "CREATE TABLE eoshop.orders (order_id BIGINT NOT NULL, version INT) PRIMARY KEY (order_id);"
                    + "CREATE TABLE eoshop.order_log (order_id BIGINT NOT NULL, note VARCHAR(32)) "
                    + "DUPLICATE KEY (order_id);"
                    + new ProgressTable("eoshop", ProgressTable.DEFAULT_NAME).createTableSql()));

    private StarRocksSinkOptions.Builder starRocks(String database, String table, String semantic, String prefix) {
        return StarRocksSinkOptions.builder()
                .withProperty("load-url", sr.emulator().feUrl().replace("http://", ""))
                .withProperty("database-name", database)
                .withProperty("table-name", table)
                .withProperty("username", "root")
                .withProperty("password", "")
                .withProperty("sink.version", "V2")
                .withProperty("sink.semantic", semantic)
                .withProperty("sink.label-prefix", prefix)
                .withProperty("sink.buffer-flush.interval-ms", "300")
                .withProperty("sink.retry.interval-ms", "100")
                .withProperty("sink.properties.format", "json")
                .withProperty("sink.properties.strip_outer_array", "true");
    }

    /** Runs the failing job and returns how often the task failed. */
    private int runWithFailure(String key, SinkV2Jobs.RowShape shape,
                               Function<DataStream<DefaultStarRocksRowData>, DataStream<DefaultStarRocksRowData>> keying,
                               Sink<DefaultStarRocksRowData> sink) throws Exception {
        SinkV2Jobs.reset(key);
        StreamExecutionEnvironment env = SinkV2Jobs.env(200, 3);
        keying.apply(SinkV2Jobs.transactions(env, TXNS, PER_CHECKPOINT,
                new SinkV2Jobs.TransactionRows(key, FAIL_AT, shape))).sinkTo(sink).name("lockstep sink v2");
        env.execute(key);
        return SinkV2Jobs.FAILURES.get(key).get();
    }

    private static Map<Long, Long> eachOnce() {
        Map<Long, Long> expected = new TreeMap<>();
        for (long id = 0; id < TXNS; id++) {
            expected.put(id, 1L);
        }
        return expected;
    }

    private static Map<Long, Long> idCounts(QueryResult result) {
        Map<Long, Long> counts = new TreeMap<>();
        for (List<Object> row : result.rows()) {
            counts.put(((Number) row.get(0)).longValue(), ((Number) row.get(1)).longValue());
        }
        return counts;
    }

    private static List<String> notes(QueryResult result) {
        List<String> notes = new ArrayList<>();
        result.rows().forEach(r -> notes.add(r.get(0) + "=" + r.get(1)));
        return notes;
    }

    private static List<String> expectedNotes() {
        List<String> notes = new ArrayList<>();
        for (long id = 0; id < TXNS; id++) {
            notes.add(id + "=n" + id);
        }
        return notes;
    }

    /**
     * A load that fails while the source waits (no further row, no checkpoint for an hour) still fails the job, with
     * the load's error: the engine's first failure posts one mail to the writer's mailbox.
     */
    @Test
    void aFailedLoadFailsTheJobWithoutAnotherRowOrCheckpoint() throws Exception {
        SinkV2Jobs.reset("v2-watch");
        StreamExecutionEnvironment env = SinkV2Jobs.env(3_600_000, 0);
        SinkV2Jobs.transactions(env, 1_000, 1, new SinkV2Jobs.TransactionRows("v2-watch", -1,
                        SinkV2Jobs.singleRow("al", "missing")))
                .sinkTo(LockstepSinks.createSink(starRocks("al", "missing", "at-least-once", "v2watch").build()));
        JobClient job = env.executeAsync("v2 failure watch");

        await().atMost(Duration.ofSeconds(120)).until(() -> job.getJobStatus().get().isGloballyTerminalState());
        assertThatThrownBy(() -> job.getJobExecutionResult().get())
                .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, LoadEngineException.class)).get()
                        .extracting(Throwable::getMessage).asString().contains("missing"));
        assertThat(sr.emulator().query("SELECT COUNT(*) FROM al.events").rows().get(0).get(0)).isEqualTo(0L);
    }

    @Test
    void singleTableAtLeastOnceEndsWithEveryRowAfterAFailure() throws Exception {
        int failures = runWithFailure("v2-al", SinkV2Jobs.singleRow("al", "events"), s -> s,
                LockstepSinks.createSink(starRocks("al", "events", "at-least-once", "v2al").build()));

        assertThat(failures).as("the failure was injected").isEqualTo(1);
        assertThat(notes(sr.emulator().query("SELECT id, note FROM al.events ORDER BY id")))
                .containsExactlyElementsOf(expectedNotes());
        assertThat(sr.emulator().liveLoadContexts()).as("no transaction left open").isZero();
    }

    @Test
    void singleTableExactlyOnceLoadsEveryRowOnceAcrossAFailure() throws Exception {
        int failures = runWithFailure("v2-eo", SinkV2Jobs.singleRow("eo", "events"), s -> s,
                LockstepSinks.createSink(starRocks("eo", "events", "exactly-once", "v2eo")
                        .withProperty("sink.properties.timeout", "600").build()));

        assertThat(failures).as("the failure was injected").isEqualTo(1);
        assertThat(idCounts(sr.emulator().query("SELECT id, COUNT(*) FROM eo.events GROUP BY id")))
                .isEqualTo(eachOnce());
        assertThat(sr.emulator().liveLoadContexts()).as("lingering transactions rolled back").isZero();
    }

    @Test
    void multiTableAtLeastOnceEndsWithEveryTransactionWholeAfterAFailure() throws Exception {
        int failures = runWithFailure("v2-mt", SinkV2Jobs.order(4, 3),
                s -> s.keyBy(DefaultStarRocksRowData::getSourcePartition),
                LockstepSinks.createSink(starRocks("*", "*", "at-least-once", "v2mt")
                        .withProperty("sink.transaction.multi-table.enabled", "true").build()));

        assertThat(failures).as("the failure was injected").isEqualTo(1);
        QueryResult counts = sr.emulator().query("SELECT (SELECT COUNT(*) FROM shop.orders), "
                + "(SELECT COUNT(*) FROM shop.order_items), (SELECT COUNT(DISTINCT order_id) FROM shop.order_items)");
        assertThat(counts.rows().get(0)).extracting(v -> ((Number) v).longValue())
                .containsExactly((long) TXNS, 3L * TXNS, (long) TXNS);
        assertThat(sr.emulator().liveLoadContexts()).as("no transaction left open").isZero();
    }

    /**
     * Exactly-once across tables: the commit timer (150 ms) makes transactions visible between checkpoints, so the
     * restore replays committed ones; the progress table's positions drop them, and the DUPLICATE KEY log holds each
     * transaction once.
     */
    @Test
    void multiTableExactlyOnceDropsTheReplayOfCommittedTransactionsAfterAFailure() throws Exception {
        int failures = runWithFailure("v2-mteo", SinkV2Jobs.positionedOrder(4),
                s -> s.keyBy(DefaultStarRocksRowData::getSourcePartition),
                LockstepSinks.createSink(starRocks("eoshop", "*", "exactly-once", "v2mteo")
                        .withProperty("sink.transaction.multi-table.enabled", "true")
                        .withProperty("sink.transaction.multi-table.job-id", "v2-mteo")
                        .withProperty("sink.buffer-flush.interval-ms", "150").build()));

        assertThat(failures).as("the failure was injected").isEqualTo(1);
        assertThat(idCounts(sr.emulator().query("SELECT order_id, COUNT(*) FROM eoshop.order_log GROUP BY order_id")))
                .isEqualTo(eachOnce());
        assertThat(sr.emulator().query("SELECT COUNT(*) FROM eoshop.orders").rows().get(0).get(0))
                .isEqualTo((long) TXNS);
    }

    @Test
    void dorisAtLeastOnceAndExactlyOnceEndInTheExactStateAfterAFailure() throws Exception {
        try (DorisEmulator doris = DorisEmulator.builder().ddl("CREATE DATABASE d; "
                + "CREATE TABLE d.events (id BIGINT NOT NULL, note VARCHAR(20)) UNIQUE KEY(id) "
                + "DISTRIBUTED BY HASH(id) BUCKETS 1; "
                + "CREATE TABLE d.log (id BIGINT, note VARCHAR(20)) DUPLICATE KEY(id) "
                + "DISTRIBUTED BY HASH(id) BUCKETS 1").build().start()) {
            Map<String, String> common = Map.of("fenodes", doris.feHostPort(), "username", "root", "password", "",
                    "sink.retry.interval-ms", "100", "sink.buffer-flush.interval-ms", "300",
                    "sink.properties.format", "json");
            Map<String, String> al = new TreeMap<>(common);
            al.put("table.identifier", "d.events");
            al.put("sink.label-prefix", "v2dal");
            Map<String, String> eo = new TreeMap<>(common);
            eo.put("table.identifier", "d.log");
            eo.put("sink.enable-2pc", "true");
            eo.put("sink.label-prefix", "v2deo");

            int alFailures = runWithFailure("v2-doris-al", SinkV2Jobs.singleRow("d", "events"), s -> s,
                    LockstepSinks.createSink(io.lockstep.flink.options.SinkTarget.DORIS, al));
            int eoFailures = runWithFailure("v2-doris-eo", SinkV2Jobs.singleRow("d", "log"), s -> s,
                    LockstepSinks.createSink(io.lockstep.flink.options.SinkTarget.DORIS, eo));

            assertThat(alFailures).as("the at-least-once failure was injected").isEqualTo(1);
            assertThat(eoFailures).as("the exactly-once failure was injected").isEqualTo(1);
            assertThat(notes(doris.query("SELECT id, note FROM d.events ORDER BY id")))
                    .containsExactlyElementsOf(expectedNotes());
            assertThat(idCounts(doris.query("SELECT id, COUNT(*) FROM d.log GROUP BY id"))).isEqualTo(eachOnce());
        }
    }
}
