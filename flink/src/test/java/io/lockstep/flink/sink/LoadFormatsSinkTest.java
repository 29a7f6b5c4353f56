package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.emulator.DorisEmulator;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.fault.FaultOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;
import org.apache.flink.streaming.api.operators.StreamSink;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same rows loaded as CSV, or with compressed bodies (JSON and CSV, every codec each target reads), give the same
 * target table as plain JSON, through the real sinks (Flink's operator test
 * harness, no cluster) against the emulator, in every sink mode and both dialects: StarRocks multi-table and
 * single-table at-least-once and exactly-once, Doris at-least-once (plain stream load) and exactly-once (two-phase).
 * The rows carry NULL, an empty string, a comma, non-ASCII text, a decimal written as a string, an upsert and a delete
 * (StarRocks {@code __op}, Doris {@code __DORIS_DELETE_SIGN__}), so each value's CSV spelling is checked by the
 * emulator's CSV reader (StarRocks docs "STREAM LOAD", CSV parameters).
 */
@SuppressWarnings("deprecation") // SinkFunction is deprecated in Flink 1.20 but is the documented API
class LoadFormatsSinkTest {
    private static final String STARROCKS_DDL = "CREATE DATABASE shop; CREATE TABLE shop.orders (id BIGINT NOT NULL, "
            + "name VARCHAR(50), price DECIMAL(10,2), note VARCHAR(100)) PRIMARY KEY (id)";
    private static final String DORIS_DDL = "CREATE DATABASE shop; CREATE TABLE shop.orders (id BIGINT NOT NULL, "
            + "name VARCHAR(50), price DECIMAL(10,2), note VARCHAR(100)) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) "
            + "BUCKETS 1";
    /** The table after the rows: id 1 upserted, id 3 deleted. */
    private static final List<String> EXPECTED = List.of("1||1.75|é日本 x", "2|x,y;z|2.25|null");

    /** How a sink mode is made and driven to a commit. */
    enum Mode {
        STARROCKS_MULTI_TABLE(false) {
            @Override
            SinkFunction<DefaultStarRocksRowData> sink(StarRocksSinkOptions.Builder options) {
                return new MultiTableSinkFunction<>(options.withProperty("sink.version", "V2")
                        .withProperty("table-name", "*")
                        .withProperty("sink.transaction.multi-table.enabled", "true").build());
            }
        },
        STARROCKS_AT_LEAST_ONCE(false) {
            @Override
            SinkFunction<DefaultStarRocksRowData> sink(StarRocksSinkOptions.Builder options) {
                return new AtLeastOnceSinkFunction<>(options.build());
            }
        },
        STARROCKS_EXACTLY_ONCE(false) {
            @Override
            SinkFunction<DefaultStarRocksRowData> sink(StarRocksSinkOptions.Builder options) {
                return new ExactlyOnceSinkFunction<>(options.withProperty("sink.semantic", "exactly-once").build());
            }
        },
        DORIS_AT_LEAST_ONCE(true) {
            @Override
            SinkFunction<DefaultStarRocksRowData> sink(StarRocksSinkOptions.Builder options) {
                return new AtLeastOnceSinkFunction<>(options.build());
            }
        },
        DORIS_EXACTLY_ONCE(true) {
            @Override
            SinkFunction<DefaultStarRocksRowData> sink(StarRocksSinkOptions.Builder options) {
                return new ExactlyOnceSinkFunction<>(options.withProperty("sink.enable-2pc", "true").build());
            }
        };

        final boolean doris;

        Mode(boolean doris) {
            this.doris = doris;
        }

        abstract SinkFunction<DefaultStarRocksRowData> sink(StarRocksSinkOptions.Builder options);

        String deleteColumn() {
            return doris ? "__DORIS_DELETE_SIGN__" : "__op";
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Mode mode : Mode.values()) {
            cases.add(Arguments.of(mode, Map.of("sink.properties.format", "csv")));
        }
        cases.add(Arguments.of(Mode.STARROCKS_MULTI_TABLE, Map.of("sink.properties.format", "csv",
                "sink.properties.column_separator", "\\x01", "sink.properties.row_delimiter", "\\x02")));
        cases.add(Arguments.of(Mode.DORIS_AT_LEAST_ONCE, Map.of("sink.properties.format", "csv",
                "sink.properties.column_separator", "\\x01", "sink.properties.line_delimiter", "\\x02")));
        // compression: every codec with JSON and CSV on StarRocks (transaction loads) and Doris (plain and two-phase)
        for (String codec : List.of("gzip", "bzip2", "lz4_frame", "zstd")) {
            cases.add(Arguments.of(Mode.STARROCKS_MULTI_TABLE, Map.of("sink.properties.format", "json",
                    "sink.properties.strip_outer_array", "true", "sink.properties.compression", codec)));
            cases.add(Arguments.of(Mode.STARROCKS_MULTI_TABLE, Map.of("sink.properties.format", "csv",
                    "sink.properties.compression", codec)));
        }
        cases.add(Arguments.of(Mode.STARROCKS_AT_LEAST_ONCE, Map.of("sink.properties.compression", "LZ4_FRAME")));
        cases.add(Arguments.of(Mode.STARROCKS_EXACTLY_ONCE, Map.of("sink.properties.format", "json",
                "sink.properties.compression", "zstd")));
        for (String codec : List.of("gz", "bz2", "lz4")) {
            for (Mode doris : List.of(Mode.DORIS_AT_LEAST_ONCE, Mode.DORIS_EXACTLY_ONCE)) {
                cases.add(Arguments.of(doris, Map.of("sink.properties.format", "csv",
                        "sink.properties.compress_type", codec)));
                cases.add(Arguments.of(doris, Map.of("sink.properties.format", "json",
                        "sink.properties.compress_type", codec)));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Mode.class)
    void plainJsonLoadsGiveTheExpectedTable(Mode mode) throws Exception {
        assertThat(load(mode, Map.of("sink.properties.format", "json", "sink.properties.strip_outer_array", "true")))
                .containsExactlyElementsOf(EXPECTED);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void csvAndCompressedLoadsGiveTheSameTableAsJson(Mode mode, Map<String, String> format) throws Exception {
        assertThat(load(mode, format)).as("%s", format).containsExactlyElementsOf(EXPECTED);
    }

    /**
     * A job configured as for the official StarRocks connector: no {@code sink.properties.format} (CSV, its default),
     * rows that are CSV lines with the default tab separator, and {@code columns} naming them with {@code __op}; the
     * lines are sent as they are.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Mode.class, names = {"STARROCKS_MULTI_TABLE", "STARROCKS_AT_LEAST_ONCE"})
    void aJobConfiguredAsForTheOfficialConnectorLoadsItsCsvLinesUnchanged(Mode mode) throws Exception {
        try (StarRocksEmulator sr = StarRocksEmulator.builder().ddl(STARROCKS_DDL).build().start()) {
            var h = harness(mode.sink(options(mode, sr.feUrl(),
                    Map.of("sink.properties.columns", "id,name,price,note,__op"))));
            String[] lines = {"1\ta b\t1.50\t\\N\t0", "2\tx,y;z\t2.25\t\\N\t0", "3\tgone\t3\tn\t0",
                "1\t\t1.75\té日本 x\t0", "3\tgone\t3\tn\t1"};
            for (int i = 0; i < lines.length; i++) {
                h.processElement(record(mode, i, lines[i], i == lines.length - 1));
            }
            h.snapshot(1, 0);
            h.notifyOfCompletedCheckpoint(1);
            h.close();
            assertThat(table(sql -> sr.query(sql).rows())).containsExactlyElementsOf(EXPECTED);
        }
    }

    /** A load refused with HTTP 503 is sent again: the same compressed bytes, which decode to the same rows. */
    @Test
    void aCompressedLoadRetriedAfterAServerErrorLoadsTheSameRows() throws Exception {
        Map<String, String> csvZstd = Map.of("sink.properties.format", "csv", "sink.properties.compression", "zstd",
                "sink.max-retries", "3", "sink.retry.interval-ms", "10");
        try (StarRocksEmulator sr = StarRocksEmulator.builder().ddl(STARROCKS_DDL).build().start()) {
            sr.faults().failNextHttp(FaultOp.LOAD, 2, 503);
            run(Mode.STARROCKS_MULTI_TABLE, options(Mode.STARROCKS_MULTI_TABLE, sr.feUrl(), csvZstd));
            assertThat(sr.faults().pending(FaultOp.LOAD)).as("both refusals were taken by the load").isZero();
            assertThat(table(sql -> sr.query(sql).rows())).containsExactlyElementsOf(EXPECTED);
        }
    }

    @Test
    void aValueContainingTheSeparatorFailsTheSinkOnceNamingTableAndColumn() throws Exception {
        try (StarRocksEmulator sr = StarRocksEmulator.builder().ddl(STARROCKS_DDL).build().start()) {
            var h = harness(Mode.STARROCKS_AT_LEAST_ONCE.sink(options(Mode.STARROCKS_AT_LEAST_ONCE, sr.feUrl(),
                    Map.of("sink.properties.format", "csv", "sink.properties.column_separator", ","))));
            assertThatThrownBy(() -> h.processElement(record(Mode.STARROCKS_AT_LEAST_ONCE, 0,
                    "{\"id\":2,\"name\":\"\",\"price\":\"2.25\",\"note\":\"x,y;z\",\"__op\":0}", false)))
                    .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, IllegalArgumentException.class))
                            .get().extracting(Throwable::getMessage).asString()
                            .startsWith("row for shop.orders: the value of column 'note' contains the CSV column "
                                    + "separator (,)")
                            .doesNotContain("x,y"));
            h.close();
            assertThat(sr.rowCount("shop", "orders")).isZero();
        }
    }

    /** Loads the rows through a fresh sink and emulator; the table's rows as {@code id|name|price|note}. */
    private static List<String> load(Mode mode, Map<String, String> format) throws Exception {
        if (mode.doris) {
            try (DorisEmulator doris = DorisEmulator.builder().ddl(DORIS_DDL).build().start()) {
                run(mode, options(mode, doris.feHostPort(), format));
                return table(sql -> doris.query(sql).rows());
            }
        }
        try (StarRocksEmulator sr = StarRocksEmulator.builder().ddl(STARROCKS_DDL).build().start()) {
            run(mode, options(mode, sr.feUrl().replace("http://", ""), format));
            return table(sql -> sr.query(sql).rows());
        }
    }

    private static StarRocksSinkOptions.Builder options(Mode mode, String loadUrl, Map<String, String> format) {
        StarRocksSinkOptions.Builder b = StarRocksSinkOptions.builder()
                .withProperty("load-url", loadUrl.replace("http://", ""))
                .withProperty("database-name", "shop")
                .withProperty("table-name", "orders")
                .withProperty("username", "root")
                .withProperty("sink.buffer-flush.interval-ms", "300000")
                .withProperty("sink.label-prefix", "formats")
                .withProperty("sink.max-retries", "0");
        if (mode.doris) {
            b.withProperty("sink.target", "doris").withProperty("sink.properties.hidden_columns",
                    "__DORIS_DELETE_SIGN__");
        }
        format.forEach(b::withProperty);
        return b;
    }

    private static void run(Mode mode, StarRocksSinkOptions.Builder options) throws Exception {
        io.lockstep.core.format.LoadFormat format = SinkSettings.from(options.build()).engineConfig(0, null)
                .loadFormat();
        Map<String, String> given = options.build().getStreamLoadProperties();
        assertThat(format instanceof io.lockstep.core.format.CompressedLoadFormat)
                .as("bodies compressed as %s asks", given)
                .isEqualTo(given.containsKey("compression") || given.containsKey("compress_type"));
        assertThat(format.name()).isEqualTo(given.getOrDefault("format", "csv"));
        var h = harness(mode.sink(options));
        String d = mode.deleteColumn();
        String[] rows = {
            "{\"id\":1,\"name\":\"a b\",\"price\":1.50,\"note\":null,\"" + d + "\":0}",
            "{\"id\":2,\"name\":\"x,y;z\",\"price\":\"2.25\",\"note\":null,\"" + d + "\":0}",
            "{\"id\":3,\"name\":\"gone\",\"price\":3,\"note\":\"n\",\"" + d + "\":0}",
            "{\"id\":1,\"name\":\"\",\"price\":1.75,\"note\":\"é日本 x\",\"" + d + "\":0}",
            "{\"id\":3,\"name\":\"gone\",\"price\":3,\"note\":\"n\",\"" + d + "\":1}",
        };
        for (int i = 0; i < rows.length; i++) {
            h.processElement(record(mode, i, rows[i], i == rows.length - 1));
        }
        h.snapshot(1, 0);
        h.notifyOfCompletedCheckpoint(1);
        h.close();
    }

    private static StreamRecord<DefaultStarRocksRowData> record(Mode mode, int i, String json, boolean end) {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, "shop", "orders", json);
        row.setSourcePartition(0);
        row.setTransactionEnd(end);
        return new StreamRecord<>(row, i);
    }

    private static List<String> table(Function<String, List<List<Object>>> query) {
        List<String> rows = new ArrayList<>();
        for (List<Object> r : query.apply("SELECT id, name, price, note FROM shop.orders ORDER BY id")) {
            rows.add(r.get(0) + "|" + r.get(1) + "|" + r.get(2) + "|" + r.get(3));
        }
        return rows;
    }

    private static OneInputStreamOperatorTestHarness<DefaultStarRocksRowData, Object> harness(
            SinkFunction<DefaultStarRocksRowData> sink) throws Exception {
        OneInputStreamOperatorTestHarness<DefaultStarRocksRowData, Object> h =
                new OneInputStreamOperatorTestHarness<>(new StreamSink<>(sink), 1, 1, 0);
        h.getStreamConfig().setCheckpointingEnabled(true);
        h.setup();
        h.open();
        return h;
    }
}
