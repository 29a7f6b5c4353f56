package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.client.StarRocksStreamLoader;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.core.metrics.MetricNames;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.txn.TransactionStatus;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The single-table engine with {@link LoadMethod#CLASSIC} (a real manager thread, the real stream loader) against the
 * emulator. DUPLICATE KEY tables keep every row sent, so a load applied twice would show as duplicated rows.
 */
@Timeout(60)
class SingleTableClassicEmulatorTest {
    private static final String DDL = "CREATE DATABASE shop; "
            + "CREATE TABLE shop.orders (id INT, note VARCHAR(20)) DUPLICATE KEY (id); "
            + "CREATE TABLE shop.events (id INT, note VARCHAR(20)) DUPLICATE KEY (id)";
    private static final String RUN_ID = "run1";

    private StarRocksEmulator sr;
    private final InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeEach
    void startEmulator() throws Exception {
        sr = StarRocksEmulator.builder().ddl(DDL).build();
        toClose.add(sr);
        sr.start();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    /** Only {@code flush()} loads: the timer interval is far longer than any test. */
    private SingleTableLoadEngine engine(String labelPrefix) {
        StarRocksStreamLoader loader = new StarRocksStreamLoader(TransactionClientConfig.builder()
                .loadUrls(sr.feUrl()).username("root").password("").maxRetries(10).retryBackoff(1, 5).build(),
                metrics);
        toClose.add(loader);
        SingleTableLoadEngine engine = SingleTableLoadEngine.startClassic(LoadEngineConfig.builder()
                .labelPrefix(labelPrefix).runId(RUN_ID).commitIntervalMs(60_000).scanningFrequencyMs(5)
                .loadMethod(LoadMethod.CLASSIC).build(), loader, metrics);
        toClose.add(engine);
        return engine;
    }

    private static byte[] row(int id, String note) {
        return ("{\"id\":" + id + ",\"note\":\"" + note + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> expected(String table, int count) {
        List<String> rows = new ArrayList<>();
        for (int id = 1; id <= count; id++) {
            rows.add(id + ":" + table + "-" + id);
        }
        return rows;
    }

    private void writeRows(SingleTableLoadEngine engine, int orders, int events) throws InterruptedException {
        for (int id = 1; id <= Math.max(orders, events); id++) {
            if (id <= orders) {
                engine.write("shop", "orders", row(id, "orders-" + id));
            }
            if (id <= events) {
                engine.write("shop", "events", row(id, "events-" + id));
            }
        }
    }

    private List<String> rows(String table) {
        List<String> out = new ArrayList<>();
        for (List<Object> r : sr.query("SELECT id, note FROM shop." + table + " ORDER BY id, note").rows()) {
            out.add(r.get(0) + ":" + r.get(1));
        }
        return out;
    }

    @Test
    void rowsOfTwoTablesFlushedByClassicLoadsAreAllVisibleExactly() throws Exception {
        SingleTableLoadEngine engine = engine("classic");
        writeRows(engine, 30, 20);
        engine.flush();

        assertThat(rows("orders")).containsExactlyElementsOf(expected("orders", 30));
        assertThat(rows("events")).containsExactlyElementsOf(expected("events", 20));
        LabelGenerator labels = new LabelGenerator("classic", 0, RUN_ID);
        assertThat(List.of(sr.labelState("shop", labels.classicLabel("orders", 1)),
                sr.labelState("shop", labels.classicLabel("events", 2)),
                sr.labelState("shop", labels.classicLabel("orders", 2)),
                sr.labelState("shop", labels.classicLabel("events", 1))))
                .as("one label per table and flush, c1 and c2 in either order")
                .filteredOn(s -> s == TransactionStatus.VISIBLE || s == TransactionStatus.COMMITTED).hasSize(2);
        assertThat(metrics.count(MetricNames.COMMITS)).as("one classic load per table").isEqualTo(2);

        writeRows(engine, 35, 20); // the second flush: new labels, rows appended to the DUPLICATE KEY tables
        engine.flush();
        List<String> orders = new ArrayList<>(expected("orders", 30));
        orders.addAll(expected("orders", 35));
        orders.sort(null);
        List<String> actualOrders = new ArrayList<>(rows("orders"));
        actualOrders.sort(null);
        assertThat(actualOrders).containsExactlyElementsOf(orders);
        assertThat(rows("events")).hasSize(40);
        assertThat(metrics.count(MetricNames.COMMITS)).isEqualTo(4);
        assertThat(engine.bufferedBytes()).isZero();
        engine.checkFailure();
    }

    @Test
    void aStreamLoadWhoseReplyIsLostIsResentUnderItsLabelAndNotDuplicated() throws Exception {
        sr.faults().dropReplyNext(FaultOp.STREAM_LOAD, 1); // the load applies, then the connection closes
        SingleTableLoadEngine engine = engine("lostreply");
        writeRows(engine, 25, 15);
        engine.flush();

        assertThat(sr.faults().pending(FaultOp.STREAM_LOAD)).as("the injected drop was taken").isZero();
        assertThat(metrics.count(MetricNames.RETRIES_PREFIX + "CONNECTION")).as("the lost reply was resent")
                .isEqualTo(1);
        assertThat(rows("orders")).as("deduplicated by the label").containsExactlyElementsOf(expected("orders", 25));
        assertThat(rows("events")).containsExactlyElementsOf(expected("events", 15));
        assertThat(engine.bufferedBytes()).isZero();
        engine.checkFailure();
    }
}
