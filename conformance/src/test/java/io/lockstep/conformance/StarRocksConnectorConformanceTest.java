package io.lockstep.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.starrocks.connector.flink.StarRocksSink;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import io.lockstep.emulator.txn.TransactionSnapshot;
import io.lockstep.emulator.txn.TransactionStatus;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.source.SourceFunction;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The released StarRocks Flink connector {@code com.starrocks:flink-connector-starrocks:1.2.10_flink-1.19} (the newest
 * build on Maven Central; run on Flink 1.20) writes into the emulator in StarRocks mode through its DataStream sink
 * {@code com.starrocks.connector.flink.StarRocksSink#sink(StarRocksSinkOptions)} and its SQL sink: the version probe
 * over {@code jdbc-url}, then Stream Load / Transaction Stream Load through {@code load-url}
 * (StarRocks/starrocks-connector-for-apache-flink {@code table/sink/SinkFunctionFactory.java},
 * {@code table/sink/StarRocksDynamicSinkFunctionV2.java}, {@code starrocks-stream-load-sdk}).
 */
class StarRocksConnectorConformanceTest {
    @RegisterExtension
    static final MiniClusterExtension FLINK = Jobs.miniCluster();

    @RegisterExtension
    static final StarRocksEmulatorExtension SR = new StarRocksEmulatorExtension(StarRocksEmulator.builder().ddl("""
            CREATE DATABASE shop;
            CREATE TABLE shop.orders (id BIGINT NOT NULL, status VARCHAR(32), total DECIMAL(12, 2))
            PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1;
            CREATE TABLE shop.events (id BIGINT NOT NULL, kind VARCHAR(16))
            DUPLICATE KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1;
            CREATE TABLE shop.visits (id BIGINT NOT NULL, kind VARCHAR(16))
            DUPLICATE KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1;
            """).user("flink", "pw-1"));

    /** The options every test starts from: what the connector's README requires, nothing else. */
    private static StarRocksSinkOptions.Builder options(String table) {
        return StarRocksSinkOptions.builder()
                .withProperty("jdbc-url", SR.emulator().jdbcUrl())
                .withProperty("load-url", Jobs.hostPort(SR.emulator().feUrl()))
                .withProperty("database-name", "shop")
                .withProperty("table-name", table)
                .withProperty("username", "flink")
                .withProperty("password", "pw-1");
    }

    /**
     * Default options (at-least-once) with JSON rows as the connector's README shows them for the DataStream API
     * ({@code sink.properties.format=json}, {@code sink.properties.strip_outer_array=true}): the PRIMARY KEY table
     * holds exactly the rows sent. Behaviour from {@code StarRocksDynamicSinkFunctionV2#invoke} and {@code #close} (the
     * final flush), {@code stream-load-sdk} {@code DefaultStreamLoader#send} (a {@code _stream_load} PUT to the FE,
     * following its 307 to the BE).
     */
    @Test
    void dataStreamSinkOnDefaultOptionsLoadsExactlyTheJsonRowsSent() throws Exception {
        StreamExecutionEnvironment env = Jobs.environment(0);
        env.fromData(
                        "{\"id\":1,\"status\":\"paid\",\"total\":10.50}",
                        "{\"id\":2,\"status\":\"new\",\"total\":3.00}",
                        "{\"id\":3,\"status\":null,\"total\":0.01}")
                .addSink(StarRocksSink.sink(options("orders")
                        .withProperty("sink.properties.format", "json")
                        .withProperty("sink.properties.strip_outer_array", "true")
                        .build()));
        env.execute("starrocks-json-at-least-once");

        assertThat(Jobs.rows(SR.emulator().query(
                        "SELECT id, status, total FROM shop.orders WHERE id < 10 ORDER BY id")))
                .containsExactly("1|paid|10.50", "2|new|3.00", "3|null|0.01");
    }

    /**
     * Default options with the default row format, CSV ({@code StarRocksSinkOptions#getStreamLoadFormat}: CSV unless
     * {@code sink.properties.format} says otherwise; rows are the table's columns joined by {@code \t},
     * {@code sink.properties.column_separator}'s default, and separated by {@code \n},
     * {@code sink.properties.row_delimiter}'s default, in {@code stream-load-sdk}
     * {@code StreamLoadDataFormat.CSVFormat}).
     */
    @Test
    void dataStreamSinkOnDefaultOptionsLoadsExactlyTheCsvRowsSent() throws Exception {
        StreamExecutionEnvironment env = Jobs.environment(0);
        env.fromData("11\tpaid\t10.50", "12\tnew\t3.00", "13\t\\N\t0.01")
                .addSink(StarRocksSink.sink(options("orders").build()));
        env.execute("starrocks-csv-at-least-once");

        assertThat(Jobs.rows(SR.emulator().query(
                        "SELECT id, status, total FROM shop.orders WHERE id BETWEEN 11 AND 13 ORDER BY id")))
                .containsExactly("11|paid|10.50", "12|new|3.00", "13|null|0.01");
    }

    /**
     * The legacy sink {@code sink.version=V1} (chosen on AUTO for StarRocks before 2.4), at-least-once, JSON rows: one
     * classic {@code PUT /api/shop/orders/_stream_load} with its own label, following the FE's 307
     * ({@code manager/StarRocksSinkManager}, {@code manager/StarRocksStreamLoadVisitor#doHttpPut}).
     */
    @Test
    void legacyV1SinkLoadsExactlyTheRowsSentThroughClassicStreamLoad() throws Exception {
        StreamExecutionEnvironment env = Jobs.environment(0);
        env.fromData("{\"id\":21,\"status\":\"paid\",\"total\":4.00}",
                        "{\"id\":22,\"status\":\"new\",\"total\":5.25}")
                .addSink(StarRocksSink.sink(options("orders")
                        .withProperty("sink.version", "V1")
                        .withProperty("sink.properties.format", "json")
                        .withProperty("sink.properties.strip_outer_array", "true")
                        .build()));
        env.execute("starrocks-v1");

        assertThat(Jobs.rows(SR.emulator().query(
                        "SELECT id, status, total FROM shop.orders WHERE id BETWEEN 21 AND 22 ORDER BY id")))
                .containsExactly("21|paid|4.00", "22|new|5.25");
    }

    /**
     * Exactly-once with {@code sink.label-prefix}, as the connector's docs advise for it: labels come from
     * {@code ExactlyOnceLabelGenerator} ({@code prefix-table-subtask-checkpoint}, here {@code conf-visits-0-1}) and,
     * at start, {@code LingeringTransactionAborter} asks the state of the labels it may have left behind
     * ({@code GET /api/shop/get_load_state?label=}) until one is unknown. The rows are loaded once, under those labels.
     */
    @Test
    void exactlyOnceSinkWithLabelPrefixLoadsTheRowsOnceUnderItsLabels() throws Exception {
        StreamExecutionEnvironment env = Jobs.environment(200);
        env.fromData("{\"id\":7,\"kind\":\"x\"}", "{\"id\":8,\"kind\":\"y\"}")
                .addSink(StarRocksSink.sink(options("visits")
                        .withProperty("sink.semantic", "exactly-once")
                        .withProperty("sink.label-prefix", "conf")
                        .withProperty("sink.properties.format", "json")
                        .withProperty("sink.properties.strip_outer_array", "true")
                        .build()));
        env.execute("starrocks-exactly-once-label-prefix");

        assertThat(Jobs.rows(SR.emulator().query("SELECT id, kind FROM shop.visits ORDER BY id")))
                .containsExactly("7|x", "8|y");
        assertThat(SR.emulator().transactions("shop"))
                .filteredOn(t -> t.label().startsWith("conf-visits-0-") && t.status() == TransactionStatus.VISIBLE)
                .isNotEmpty();
    }

    /**
     * {@code sink.semantic=exactly-once} with checkpointing on, into a DUPLICATE KEY table (a row loaded twice would
     * show twice): nothing is visible before a checkpoint, the rows are visible once the checkpoint completes, and the
     * job's end adds nothing. Behaviour from {@code StarRocksDynamicSinkFunctionV2#snapshotState} (flush and prepare
     * the transactions of the checkpoint) and {@code #notifyCheckpointComplete} (commit them), labels from
     * {@code ExactlyOnceLabelGenerator}, and {@code LingeringTransactionAborter} at start.
     */
    @Test
    void exactlyOnceSinkMakesRowsVisibleAtTheCheckpointExactlyOnce(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        HoldingSource.reset();
        StreamExecutionEnvironment env = Jobs.environment(3_600_000L);   // checkpoints are triggered by the test
        env.addSource(new HoldingSource(List.of("{\"id\":1,\"kind\":\"a\"}", "{\"id\":2,\"kind\":\"b\"}",
                        "{\"id\":2,\"kind\":\"c\"}")))
                .addSink(StarRocksSink.sink(options("events")
                        .withProperty("sink.semantic", "exactly-once")
                        .withProperty("sink.properties.format", "json")
                        .withProperty("sink.properties.strip_outer_array", "true")
                        .build()));
        JobClient job = env.executeAsync("starrocks-exactly-once");
        JobID id = job.getJobID();
        try {
            // The source and the sink are chained in one task: collect() returns after the sink's invoke, so once the
            // source has emitted, the sink holds all three rows.
            assertThat(HoldingSource.EMITTED.await(30, TimeUnit.SECONDS)).as("source emitted its rows").isTrue();
            assertThat(SR.emulator().rowCount("shop", "events")).as("visible before any checkpoint").isZero();

            cluster.triggerCheckpoint(id).get(30, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(SR.emulator().rowCount("shop", "events")).isEqualTo(3));
            List<TransactionSnapshot> committed = SR.emulator().transactions("shop").stream()
                    .filter(t -> "events".equals(t.table()) && t.status() == TransactionStatus.VISIBLE)
                    .toList();
            assertThat(committed).as("transactions of the checkpoint").isNotEmpty();
        } finally {
            HoldingSource.RELEASE.countDown();
        }
        job.getJobExecutionResult().get(60, TimeUnit.SECONDS);

        assertThat(Jobs.rows(SR.emulator().query("SELECT id, kind FROM shop.events ORDER BY id, kind")))
                .containsExactly("1|a", "2|b", "2|c");
    }

    /**
     * The SQL sink ({@code 'connector' = 'starrocks'}) on default options, with an upsert and a delete from a
     * changelog into the PRIMARY KEY table: the table holds exactly the net rows. Before it starts, the sink checks the
     * Flink schema against the table's over {@code jdbc-url} (the constructor of
     * {@code table/sink/StarRocksDynamicSinkFunctionV2} calls
     * {@code manager/StarRocksSinkTable#validateTableStructure}, which reads {@code information_schema.COLUMNS} through
     * {@code manager/StarRocksQueryVisitor#getTableColumnsMetaData}); rows go as CSV with the {@code __op} column the
     * sink adds for a PRIMARY KEY table ({@code table/sink/StarRocksDynamicTableSink},
     * {@code row/sink/StarRocksTableRowTransformer}).
     */
    @Test
    void sqlSinkOnDefaultOptionsLoadsTheNetChangesIntoThePrimaryKeyTable() throws Exception {
        StreamExecutionEnvironment env = Jobs.environment(0);
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        tables.executeSql(sqlSinkDdl(", PRIMARY KEY (id) NOT ENFORCED"));
        tables.createTemporaryView("changes", tables.fromChangelogStream(env.fromData(
                Types.ROW_NAMED(new String[] {"id", "status", "total"}, Types.LONG, Types.STRING, Types.BIG_DEC),
                Row.ofKind(RowKind.INSERT, 31L, "new", new BigDecimal("1.00")),
                Row.ofKind(RowKind.INSERT, 32L, null, new BigDecimal("2.50")),
                Row.ofKind(RowKind.INSERT, 33L, "new", new BigDecimal("7.00")),
                Row.ofKind(RowKind.UPDATE_AFTER, 31L, "paid", new BigDecimal("1.00")),
                Row.ofKind(RowKind.DELETE, 33L, "new", new BigDecimal("7.00")))));
        tables.executeSql("INSERT INTO sr_orders SELECT id, status, CAST(total AS DECIMAL(12, 2)) FROM changes")
                .await(60, TimeUnit.SECONDS);

        assertThat(Jobs.rows(SR.emulator().query(
                        "SELECT id, status, total FROM shop.orders WHERE id > 30 ORDER BY id")))
                .containsExactly("31|paid|1.00", "32|null|2.50");
    }

    /**
     * The SQL sink's table check reads the PRIMARY KEY from the emulator's {@code information_schema.COLUMNS}
     * ({@code COLUMN_KEY = 'PRI'}): a Flink table without a primary key over the PRIMARY KEY table is refused when the
     * job is planned, with the connector's own message ({@code manager/StarRocksSinkTable#validateTableStructure}).
     */
    @Test
    void sqlSinkTableCheckReadsThePrimaryKeyFromInformationSchema() {
        StreamExecutionEnvironment env = Jobs.environment(0);
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        tables.executeSql(sqlSinkDdl(""));
        long rowsBefore = SR.emulator().rowCount("shop", "orders");

        assertThatThrownBy(() -> tables.executeSql("INSERT INTO sr_orders VALUES (CAST(41 AS BIGINT), 'x', 1.00)"))
                .hasStackTraceContaining("Primary keys not defined in the sink `TableSchema`.");
        assertThat(SR.emulator().rowCount("shop", "orders")).as("nothing loaded").isEqualTo(rowsBefore);
    }

    /** {@code CREATE TABLE sr_orders} over {@code shop.orders} with the connector's required options only. */
    private static String sqlSinkDdl(String primaryKey) {
        return "CREATE TABLE sr_orders (id BIGINT NOT NULL, status STRING, total DECIMAL(12, 2)" + primaryKey
                + ") WITH ("
                + "'connector' = 'starrocks',"
                + "'jdbc-url' = '" + SR.emulator().jdbcUrl() + "',"
                + "'load-url' = '" + Jobs.hostPort(SR.emulator().feUrl()) + "',"
                + "'database-name' = 'shop', 'table-name' = 'orders',"
                + "'username' = 'flink', 'password' = 'pw-1')";
    }

    /** Emits its rows, then holds the job open (no further rows) until the test releases it. */
    static final class HoldingSource implements SourceFunction<String> {
        private static final long serialVersionUID = 1L;
        // Replaced by the test thread (reset) before the job starts, then counted down by the source's task thread
        // (EMITTED) and the test thread (RELEASE); volatile publishes the replacement.
        static volatile CountDownLatch EMITTED = new CountDownLatch(1);
        static volatile CountDownLatch RELEASE = new CountDownLatch(1);

        private final List<String> rows;
        private volatile boolean running = true;

        HoldingSource(List<String> rows) {
            this.rows = List.copyOf(rows);
        }

        static void reset() {
            EMITTED = new CountDownLatch(1);
            RELEASE = new CountDownLatch(1);
        }

        @Override
        public void run(SourceContext<String> ctx) throws Exception {
            synchronized (ctx.getCheckpointLock()) {
                rows.forEach(ctx::collect);
            }
            EMITTED.countDown();
            while (running && !RELEASE.await(10, TimeUnit.MILLISECONDS)) {
                // hold: the checkpoint the test triggers passes through this source meanwhile
            }
        }

        @Override
        public void cancel() {
            running = false;
        }
    }
}
