package io.lockstep.flink.badinput;

import static org.assertj.core.api.Assertions.assertThat;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.SinkFunctionFactory;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import com.sun.net.httpserver.HttpServer;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;
import org.apache.flink.streaming.api.operators.StreamSink;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad-input catalogue (docs/reliability.md): one row per input class. Each case first commits a good source
 * transaction (an order and its item) through a correctly configured multi-table sink, then runs the bad input through
 * a sink in Flink's operator test harness (no cluster): building the options, creating the sink, opening it, writing
 * the rows, and a checkpoint. The first step that fails must fail with the expected text (naming what was wrong and
 * where), and the good transaction must still be in the tables: nothing already accepted is lost.
 */
class BadInputCatalogueTest {
    private static final String DDL = "CREATE DATABASE shop;"
            + "CREATE TABLE shop.orders (order_id BIGINT NOT NULL, status VARCHAR(16)) PRIMARY KEY (order_id) "
            + "DISTRIBUTED BY HASH(order_id);"
            + "CREATE TABLE shop.order_items (order_id BIGINT NOT NULL, line_no INT NOT NULL, sku VARCHAR(16)) "
            + "PRIMARY KEY (order_id, line_no) DISTRIBUTED BY HASH(order_id);"
            + "CREATE DATABASE audit;"
            + "CREATE TABLE audit.events (event_id BIGINT NOT NULL, note VARCHAR(16)) DUPLICATE KEY (event_id) "
            + "DISTRIBUTED BY HASH(event_id);";
    private static final String PASSWORD = "s3cret-pw";

    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(
            StarRocksEmulator.builder().ddl(DDL).user("loader", PASSWORD));

    private HttpServer nonJsonServer;

    @AfterEach
    void stopServer() {
        if (nonJsonServer != null) {
            nonJsonServer.stop(0);
        }
    }

    /**
     * One input class.
     *
     * @param inputClass what is wrong (the test's display name)
     * @param options changes to the good options
     * @param rows rows written after the good transaction
     * @param expected fragments the failure's message chain must contain
     */
    record Case(String inputClass, OptionsChange options,
            List<DefaultStarRocksRowData> rows, List<String> expected) {
        @Override
        public String toString() {
            return inputClass;
        }
    }

    /** Changes the good options; may use the test's servers. */
    @FunctionalInterface
    interface OptionsChange {
        StarRocksSinkOptions.Builder apply(StarRocksSinkOptions.Builder good, BadInputCatalogueTest test)
                throws Exception;
    }

    static Stream<Case> catalogue() {
        DefaultStarRocksRowData order2 = row(0, "shop", "orders", "{\"order_id\":2,\"status\":\"NEW\"}", true);
        List<Case> cases = new ArrayList<>();
        cases.add(new Case("malformed JSON row: not an object", (o, t) -> o,
                List.of(row(0, "shop", "orders", "order_id=2", true)),
                List.of("row for shop.orders (partition 0) (10 bytes) is not a JSON object")));
        cases.add(new Case("malformed JSON row: broken inside the braces", (o, t) -> o,
                List.of(row(0, "shop", "orders", "{\"order_id\":2,\"status\":}", true)),
                List.of("commit of label bad-0-", "(db shop, multi-table) failed", "Message 'too many filtered rows'",
                        "Malformed JSON")));
        cases.add(new Case("row for an unknown table", (o, t) -> o,
                List.of(row(0, "shop", "refunds", "{\"refund_id\":1}", true)),
                List.of("into shop.refunds under label bad-0-", "Failed to find table refunds in db shop")));
        cases.add(new Case("cross-database write in one cycle", (o, t) -> o,
                List.of(order2, row(1, "audit", "events", "{\"event_id\":1,\"note\":\"n\"}", true)),
                List.of("cross-database write refused: table audit.events is in database 'audit' but this "
                        + "subtask's multi-table transactions load into database 'shop'")));
        cases.add(new Case("missing transactionEnd at checkpoint", (o, t) -> o,
                List.of(row(3, "shop", "orders", "{\"order_id\":2,\"status\":\"NEW\"}", false)),
                List.of("checkpoint 1 of multi-table sink subtask 0 failed",
                        "source partitions [3] are in the middle of a source transaction")));
        cases.add(new Case("negative source partition", (o, t) -> o,
                List.of(row(-1, "shop", "orders", "{\"order_id\":2,\"status\":\"NEW\"}", true)),
                List.of("row 'shop.orders' (source partition -1) has sourcePartition -1")));
        cases.add(new Case("row larger than the buffer",
                (o, t) -> o.withProperty("sink.transaction.multi-table.buffer-size", "1024"),
                List.of(row(0, "shop", "orders", "{\"order_id\":2,\"status\":\"" + "x".repeat(4096) + "\"}", true)),
                List.of("row for shop.orders (partition 0) (4122 bytes)",
                        "pass the hard buffer limit of 2048 bytes (2 x buffer-size 1024)",
                        "raise sink.transaction.multi-table.buffer-size")));
        cases.add(new Case("wrong credentials (401)", (o, t) -> o.withProperty("password", "wrong-pw"),
                List.of(order2),
                List.of("begin of label bad-0-", "failed (ACCESS_DENIED): HTTP 401",
                        "check username 'loader', its password")));
        cases.add(new Case("label prefix with illegal characters", (o, t) -> o.withProperty("sink.label-prefix", "my job!"),
                List.of(), List.of("Invalid sink option 'sink.label-prefix' = 'my job!'",
                        "only letters, digits, '_' and '-'")));
        cases.add(new Case("server returning non-JSON", (o, t) -> o.withProperty("load-url", t.nonJsonUrl()),
                List.of(order2), List.of("begin of label bad-0-", "/api/transaction/begin with a non-JSON body, "
                        + "first bytes: '<html><body>502 Bad Gateway</body></html>'")));
        cases.add(new Case("load-url: https against a plain http port", (o, t) -> o.withProperty("load-url",
                t.sr.emulator().feUrl().replace("http://", "https://")), List.of(order2),
                List.of("begin of label bad-0-", "POST https://127.0.0.1:", "SSLException")));
        cases.add(new Case("load-url: misspelt scheme", (o, t) -> o.withProperty("load-url", "htp://127.0.0.1:8030"),
                List.of(), List.of("Invalid sink option 'load-url' = 'htp://127.0.0.1:8030'",
                        "has scheme 'htp': expected http:// or https://")));
        cases.add(new Case("load-url: no port", (o, t) -> o.withProperty("load-url", "127.0.0.1"), List.of(),
                List.of("load-url entry '127.0.0.1' has no port")));
        cases.add(new Case("load-url: ',' instead of ';'", (o, t) -> o.withProperty("load-url",
                "127.0.0.1:8030,127.0.0.1:8031"), List.of(), List.of("contains ','", "separate several FE addresses with ';'")));
        cases.add(new Case("load-url: port out of range", (o, t) -> o.withProperty("load-url", "127.0.0.1:80300"),
                List.of(order2), List.of("load-url entry '127.0.0.1:80300' has port 80300: expected 1 to 65535")));
        // Invalid options: one row per validation rule (docs/options.md, "Rules between options" and ranges).
        cases.add(invalidOption("missing required option", "username", null, "Missing required sink option 'username'"));
        cases.add(invalidOption("unknown option (typo)", "sink.label-prefx", "x", "Unknown sink option 'sink.label-prefx'"));
        cases.add(invalidOption("unsupported StarRocks option", "sink.buffer-flush.max-rows", "10",
                "sink.buffer-flush.max-rows"));
        cases.add(invalidOption("multi-table without sink.version V2", "sink.version", "AUTO", "sink.version"));
        cases.add(invalidOption("multi-table with exactly-once", "sink.semantic", "exactly-once", "sink.semantic"));
        cases.add(invalidOption("merge commit", "sink.properties.enable_merge_commit", "true",
                "sink.properties.enable_merge_commit"));
        cases.add(invalidOption("timeout not above the commit interval", "sink.properties.timeout", "3600",
                "sink.properties.timeout"));
        cases.add(invalidOption("commit interval below its range", "sink.buffer-flush.interval-ms", "50",
                "Invalid sink option 'sink.buffer-flush.interval-ms' = '50'"));
        cases.add(invalidOption("negative retries", "sink.max-retries", "-1",
                "Invalid sink option 'sink.max-retries' = '-1'"));
        cases.add(invalidOption("not a number", "sink.connect.timeout-ms", "ten",
                "Invalid sink option 'sink.connect.timeout-ms' = 'ten'"));
        cases.add(invalidOption("legacy sink.version V1", "sink.version", "V1", "sink.version"));
        cases.add(invalidOption("rows not sent as a JSON array", "sink.properties.strip_outer_array", "false",
                "strip_outer_array"));
        cases.add(invalidOption("a header the sink sets itself", "sink.properties.label", "x",
                "sink.properties.label"));
        return cases.stream();
    }

    /** A case whose options break one validation rule (value null removes the option). */
    private static Case invalidOption(String rule, String key, String value, String expected) {
        return new Case("invalid options: " + rule, (o, t) -> {
            if (value == null) {
                return t.goodOptionsWithout(key);
            }
            return o.withProperty(key, value);
        }, List.of(), List.of(expected));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("catalogue")
    void badInputFailsNamingWhatAndWhereAndLosesNothingAccepted(Case c) throws Exception {
        commitGoodTransaction();

        Throwable failure = runBadInput(c);

        assertThat(failure).as(c.inputClass() + ": must fail").isNotNull();
        String text = ExceptionUtils.stringifyException(failure);
        for (String expected : c.expected()) {
            assertThat(text).as(c.inputClass() + ": error text").contains(expected);
        }
        assertThat(text).as("never the password").doesNotContain(PASSWORD);
        assertThat(count("shop.orders WHERE order_id = 1")).as(c.inputClass() + ": the committed order is kept")
                .isEqualTo(1);
        assertThat(count("shop.order_items WHERE order_id = 1")).as(c.inputClass() + ": the committed item is kept")
                .isEqualTo(1);
    }

    private Throwable runBadInput(Case c) {
        OneInputStreamOperatorTestHarness<DefaultStarRocksRowData, Object> h = null;
        try {
            StarRocksSinkOptions options = c.options().apply(goodOptions(), this).build();
            SinkFunction<DefaultStarRocksRowData> sink = SinkFunctionFactory.createSinkFunction(options);
            h = new OneInputStreamOperatorTestHarness<>(new StreamSink<>(sink), 1, 1, 0);
            h.getStreamConfig().setCheckpointingEnabled(true);
            h.setup();
            h.open();
            for (DefaultStarRocksRowData row : c.rows()) {
                h.processElement(new StreamRecord<>(row));
            }
            h.snapshot(1, 0);
            return null;
        } catch (Throwable t) {
            return t;
        } finally {
            if (h != null) {
                try {
                    h.close();
                } catch (Exception e) {
                    // the failure above is what the case is about
                }
            }
        }
    }

    private void commitGoodTransaction() throws Exception {
        SinkFunction<DefaultStarRocksRowData> sink = SinkFunctionFactory.createSinkFunction(goodOptions().build());
        try (OneInputStreamOperatorTestHarness<DefaultStarRocksRowData, Object> h =
                new OneInputStreamOperatorTestHarness<>(new StreamSink<>(sink), 1, 1, 0)) {
            h.getStreamConfig().setCheckpointingEnabled(true);
            h.setup();
            h.open();
            h.processElement(new StreamRecord<>(row(0, "shop", "orders", "{\"order_id\":1,\"status\":\"NEW\"}", false)));
            h.processElement(new StreamRecord<>(row(0, "shop", "order_items",
                    "{\"order_id\":1,\"line_no\":1,\"sku\":\"A\"}", true)));
            h.snapshot(1, 0);
        }
        assertThat(count("shop.orders")).isEqualTo(1);
    }

    private Map<String, String> goodProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("load-url", sr.emulator().feUrl());
        p.put("database-name", "*");
        p.put("table-name", "*");
        p.put("username", "loader");
        p.put("password", PASSWORD);
        p.put("sink.version", "V2");
        p.put("sink.transaction.multi-table.enabled", "true");
        p.put("sink.buffer-flush.interval-ms", "3600000");
        p.put("sink.properties.timeout", "7200");
        p.put("sink.max-retries", "1");
        p.put("sink.retry.interval-ms", "50");
        p.put("sink.label-prefix", "bad");
        p.put("sink.properties.format", "json");
        return p;
    }

    private StarRocksSinkOptions.Builder goodOptions() {
        return goodOptionsWithout("");
    }

    /** The good options without one key (all keys but {@code key} copied from {@link #goodOptions()}). */
    StarRocksSinkOptions.Builder goodOptionsWithout(String key) {
        StarRocksSinkOptions.Builder builder = StarRocksSinkOptions.builder();
        goodProperties().forEach((k, v) -> {
            if (!k.equals(key)) {
                builder.withProperty(k, v);
            }
        });
        return builder;
    }

    private long count(String table) {
        return ((Number) sr.emulator().query("SELECT COUNT(*) FROM " + table).rows().get(0).get(0)).longValue();
    }

    static DefaultStarRocksRowData row(int partition, String db, String table, String json, boolean end) {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, db, table, json);
        row.setSourcePartition(partition);
        row.setTransactionEnd(end);
        return row;
    }

    String nonJsonUrl() throws Exception {
        nonJsonServer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        nonJsonServer.createContext("/", exchange -> {
            byte[] body = "<html><body>502 Bad Gateway</body></html>".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/html");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        nonJsonServer.start();
        return "http://127.0.0.1:" + nonJsonServer.getAddress().getPort();
    }
}
