package io.lockstep.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.DorisEmulator;
import io.lockstep.emulator.DorisEmulatorExtension;
import java.math.BigDecimal;
import java.util.concurrent.TimeUnit;
import org.apache.doris.flink.cfg.DorisExecutionOptions;
import org.apache.doris.flink.cfg.DorisOptions;
import org.apache.doris.flink.cfg.DorisReadOptions;
import org.apache.doris.flink.sink.DorisSink;
import org.apache.doris.flink.sink.writer.serializer.RowDataSerializer;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The released Doris Flink connector {@code org.apache.doris:flink-doris-connector-1.20:25.0.0} writes into the
 * emulator in Doris mode through its Sink V2 {@code org.apache.doris.flink.sink.DorisSink}, on its default execution
 * options (apache/doris-flink-connector {@code flink-doris-connector/src/main/java/org/apache/doris/flink/cfg/
 * DorisExecutionOptions.java}: {@code builder()} turns 2PC and deletes on and sets no stream load properties, so
 * rows go as Doris' default CSV with {@code \t}; {@code defaults()} adds {@code format: json} and
 * {@code read_json_by_line: true}) and through its SQL sink.
 */
class DorisConnectorConformanceTest {
    private static final String[] FIELDS = {"order_id", "status", "total"};
    private static final DataType[] TYPES = {
        DataTypes.BIGINT().notNull(), DataTypes.VARCHAR(32), DataTypes.DECIMAL(12, 2)};

    @RegisterExtension
    static final MiniClusterExtension FLINK = Jobs.miniCluster();

    @RegisterExtension
    static final DorisEmulatorExtension DORIS = new DorisEmulatorExtension(DorisEmulator.builder().ddl("""
            CREATE DATABASE shop;
            CREATE TABLE shop.orders (
              `order_id` BIGINT NOT NULL,
              `status` VARCHAR(32),
              `total` DECIMAL(12, 2)
            ) UNIQUE KEY(`order_id`)
            DISTRIBUTED BY HASH(`order_id`) BUCKETS 1
            PROPERTIES ("replication_num" = "1", "enable_unique_key_merge_on_write" = "true");
            CREATE TABLE shop.events (
              `order_id` BIGINT NOT NULL,
              `status` VARCHAR(32),
              `total` DECIMAL(12, 2)
            ) DUPLICATE KEY(`order_id`)
            DISTRIBUTED BY HASH(`order_id`) BUCKETS 1;
            """).user("flink", "pw-1"));

    /**
     * Default options into a UNIQUE KEY table, with an update and a delete carried by the rows' {@link RowKind}: the
     * table holds exactly the rows sent, net of the delete. The connector asks the FE for the table's schema
     * ({@code GET /api/shop/orders/_schema}, {@code rest/RestService#getSchema}) and, finding {@code UNIQUE_KEYS},
     * turns 2PC off as {@code sink/DorisSink#checkKeyType} does unless {@code sink.enable-2pc} is forced; it sends each
     * stream load to the FE and follows its 307 to the BE ({@code sink.auto-redirect}, on by default, in
     * {@code cfg/DorisOptions}), checks the FE with {@code GET /} between loads, writes with
     * {@code sink/writer/DorisWriter} (flushed at each checkpoint and at the end of input) and marks deletes with
     * {@code sink/writer/serializer/RowDataSerializer} ({@code __DORIS_DELETE_SIGN__} as the trailing CSV field,
     * declared by the {@code hidden_columns} header).
     */
    @Test
    void dorisSinkOnDefaultOptionsLoadsExactlyTheRowsSentIncludingADelete() throws Exception {
        StreamExecutionEnvironment env = Jobs.environment(200);
        env.fromData(InternalTypeInfo.of(rowType()),
                        row(RowKind.INSERT, 1, "new", "10.50"),
                        row(RowKind.INSERT, 2, "new", "3.00"),
                        row(RowKind.INSERT, 3, null, "0.01"),
                        row(RowKind.UPDATE_AFTER, 1, "paid", "10.50"),
                        row(RowKind.DELETE, 2, "new", "3.00"))
                .sinkTo(sink("shop.orders", true));
        env.execute("doris-default-options");

        assertThat(Jobs.rows(DORIS.emulator().query(
                        "SELECT order_id, status, total FROM shop.orders WHERE order_id < 50 ORDER BY 1")))
                .containsExactly("1|paid|10.50", "3|null|0.01");
    }

    /**
     * The connector's JSON defaults ({@code DorisExecutionOptions.defaults()}: {@code format: json},
     * {@code read_json_by_line: true}) with the JSON {@code RowDataSerializer}, into the UNIQUE KEY table with a
     * delete: each row is one JSON object per line, the delete carried as its {@code __DORIS_DELETE_SIGN__} key
     * ({@code sink/writer/serializer/RowDataSerializer#buildJsonString}). The table holds exactly the net rows.
     */
    @Test
    void dorisSinkWithTheJsonDefaultsLoadsExactlyTheRowsSentIncludingADelete() throws Exception {
        StreamExecutionEnvironment env = Jobs.environment(200);
        env.fromData(InternalTypeInfo.of(rowType()),
                        row(RowKind.INSERT, 61, "new", "1.00"),
                        row(RowKind.INSERT, 62, null, "2.00"),
                        row(RowKind.DELETE, 61, "new", "1.00"))
                .sinkTo(DorisSink.<RowData>builder()
                        .setDorisReadOptions(DorisReadOptions.builder().build())
                        .setDorisOptions(options("shop.orders"))
                        .setDorisExecutionOptions(DorisExecutionOptions.defaults())
                        .setSerializer(RowDataSerializer.builder()
                                .setFieldNames(FIELDS)
                                .setFieldType(TYPES)
                                .setType("json")
                                .enableDelete(true)
                                .build())
                        .build());
        env.execute("doris-json-defaults");

        assertThat(Jobs.rows(DORIS.emulator().query(
                        "SELECT order_id, status, total FROM shop.orders WHERE order_id BETWEEN 61 AND 62 ORDER BY 1")))
                .containsExactly("62|null|2.00");
    }

    /**
     * Default options into a DUPLICATE KEY table, where the connector keeps its default 2PC
     * ({@code sink/DorisSink#checkKeyType} changes nothing): each checkpoint's stream load is sent with
     * {@code two_phase_commit: true} by {@code sink/writer/DorisWriter#prepareCommit} and committed by
     * {@code sink/committer/DorisCommitter} ({@code PUT /api/shop/_stream_load_2pc}, {@code txn_operation: commit})
     * once the checkpoint completes, the last at the end of input. A row loaded twice would show twice: the table holds
     * exactly the rows sent.
     */
    @Test
    void dorisSinkOnDefaultOptionsCommitsItsTwoPhaseLoadsExactlyOnce() throws Exception {
        StreamExecutionEnvironment env = Jobs.environment(200);
        env.fromData(InternalTypeInfo.of(rowType()),
                        row(RowKind.INSERT, 1, "new", "10.50"),
                        row(RowKind.INSERT, 1, "paid", "10.50"),
                        row(RowKind.INSERT, 2, null, "0.01"))
                .sinkTo(sink("shop.events", false));
        env.execute("doris-default-options-2pc");

        assertThat(Jobs.rows(DORIS.emulator().query(
                        "SELECT order_id, status, total FROM shop.events ORDER BY 1, 2 NULLS FIRST")))
                .containsExactly("1|new|10.50", "1|paid|10.50", "2|null|0.01");
    }

    /**
     * The SQL sink ({@code 'connector' = 'doris'}) with only its required options, a changelog with an update and a
     * delete into the UNIQUE KEY table: the table holds exactly the net rows. The table sink reads {@code _schema} and
     * enables deletes for a UNIQUE KEY table ({@code table/DorisDynamicTableSink#getSinkRuntimeProvider}), then writes
     * through the same {@code DorisSink} with {@code RowDataSerializer}.
     */
    @Test
    void sqlSinkOnDefaultOptionsLoadsTheNetChangesIntoTheUniqueKeyTable() throws Exception {
        StreamExecutionEnvironment env = Jobs.environment(200);
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        tables.executeSql("CREATE TABLE d_orders (order_id BIGINT NOT NULL, status STRING, total DECIMAL(12, 2),"
                + " PRIMARY KEY (order_id) NOT ENFORCED) WITH ("
                + "'connector' = 'doris',"
                + "'fenodes' = '" + DORIS.emulator().feHostPort() + "',"
                + "'table.identifier' = 'shop.orders',"
                + "'username' = 'flink', 'password' = 'pw-1')");
        tables.createTemporaryView("changes", tables.fromChangelogStream(env.fromData(
                Types.ROW_NAMED(new String[] {"order_id", "status", "total"}, Types.LONG, Types.STRING, Types.BIG_DEC),
                Row.ofKind(RowKind.INSERT, 51L, "new", new BigDecimal("1.00")),
                Row.ofKind(RowKind.INSERT, 52L, null, new BigDecimal("2.50")),
                Row.ofKind(RowKind.INSERT, 53L, "new", new BigDecimal("7.00")),
                Row.ofKind(RowKind.UPDATE_AFTER, 51L, "paid", new BigDecimal("1.00")),
                Row.ofKind(RowKind.DELETE, 53L, "new", new BigDecimal("7.00")))));
        tables.executeSql("INSERT INTO d_orders SELECT order_id, status, CAST(total AS DECIMAL(12, 2)) FROM changes")
                .await(60, TimeUnit.SECONDS);

        assertThat(Jobs.rows(DORIS.emulator().query(
                        "SELECT order_id, status, total FROM shop.orders WHERE order_id > 50 ORDER BY 1")))
                .containsExactly("51|paid|1.00", "52|null|2.50");
    }

    /**
     * The sink on default options with the connector's CSV row serializer; {@code deletes} appends the delete sign to
     * each row, as the connector's table sink does for a UNIQUE KEY table only (a DUPLICATE KEY table has no
     * {@code __DORIS_DELETE_SIGN__} column, so the extra field would be refused as Doris refuses it).
     */
    private static DorisSink<RowData> sink(String table, boolean deletes) {
        return DorisSink.<RowData>builder()
                .setDorisReadOptions(DorisReadOptions.builder().build())
                .setDorisOptions(options(table))
                .setDorisExecutionOptions(DorisExecutionOptions.builder().build())
                .setSerializer(RowDataSerializer.builder()
                        .setFieldNames(FIELDS)
                        .setFieldType(TYPES)
                        .setType("csv")
                        .setFieldDelimiter("\t")
                        .enableDelete(deletes)
                        .build())
                .build();
    }

    /** The FE, table and user: the options the connector requires. */
    private static DorisOptions options(String table) {
        return DorisOptions.builder()
                .setFenodes(DORIS.emulator().feHostPort())
                .setTableIdentifier(table)
                .setUsername("flink")
                .setPassword("pw-1")
                .build();
    }

    private static RowType rowType() {
        return (RowType) DataTypes.ROW(
                DataTypes.FIELD(FIELDS[0], TYPES[0]),
                DataTypes.FIELD(FIELDS[1], TYPES[1]),
                DataTypes.FIELD(FIELDS[2], TYPES[2])).getLogicalType();
    }

    private static RowData row(RowKind kind, long id, String status, String total) {
        return GenericRowData.ofKind(kind, id, status == null ? null : StringData.fromString(status),
                DecimalData.fromBigDecimal(new BigDecimal(total), 12, 2));
    }
}
