package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.client.FailureClass;
import io.lockstep.core.client.TransactionException;
import io.lockstep.emulator.DorisEmulator;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import java.util.List;
import java.util.Optional;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;
import org.apache.flink.streaming.api.operators.StreamSink;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code sink.properties.strict_mode} and {@code max_filter_ratio} keep their StarRocks meaning through the sink API,
 * and a load the server refuses for filtered rows is a data error: the sink raises it as a
 * {@link NonRecoverableSinkFailure} in one line, with the error log's first lines, so Flink fails the job once
 * instead of restarting it (Flink's operator test harness, no cluster, against the emulator).
 */
@SuppressWarnings("deprecation") // SinkFunction is deprecated in Flink 1.20 but is the documented API
class FilteredRowsSinkTest {
    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder().ddl(
            "CREATE DATABASE rel; CREATE TABLE rel.orders (id BIGINT NOT NULL, qty INT) DUPLICATE KEY (id); "
                    + "CREATE TABLE rel.items (id BIGINT NOT NULL, qty INT) DUPLICATE KEY (id)"));

    /** Multi-table at-least-once options; commits at checkpoints only. */
    private StarRocksSinkOptions multiTable(boolean strict) {
        return multiTable(strict, "0");
    }

    /** As {@link #multiTable(boolean)}, with {@code sink.properties.max_filter_ratio}. */
    private StarRocksSinkOptions multiTable(boolean strict, String maxFilterRatio) {
        return StarRocksSinkOptions.builder()
                .withProperty("load-url", sr.emulator().feUrl().replace("http://", ""))
                .withProperty("database-name", "rel")
                .withProperty("table-name", "*")
                .withProperty("username", "root")
                .withProperty("sink.version", "V2")
                .withProperty("sink.semantic", "at-least-once")
                .withProperty("sink.transaction.multi-table.enabled", "true")
                .withProperty("sink.buffer-flush.interval-ms", "300000")
                .withProperty("sink.label-prefix", "filtered")
                .withProperty("sink.max-retries", "0")
                .withProperty("sink.properties.format", "json")
                .withProperty("sink.properties.strip_outer_array", "true")
                .withProperty("sink.properties.strict_mode", String.valueOf(strict))
                .withProperty("sink.properties.max_filter_ratio", maxFilterRatio)
                .build();
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

    /** One source transaction: a good order, and an item whose qty is not a number. */
    private static List<StreamRecord<DefaultStarRocksRowData>> orderWithBadItem(String database) {
        DefaultStarRocksRowData order = new DefaultStarRocksRowData(null, database, "orders",
                "{\"id\":1,\"qty\":1}");
        DefaultStarRocksRowData item = new DefaultStarRocksRowData(null, database, "items",
                "{\"id\":2,\"qty\":\"many\"}");
        order.setSourcePartition(0);
        item.setSourcePartition(0);
        item.setTransactionEnd(true);
        return List.of(new StreamRecord<>(order), new StreamRecord<>(item));
    }

    /** The failure Flink would classify: a one-line {@link NonRecoverableSinkFailure} naming the refusal. */
    private static void assertFailsOnceInOneLine(Throwable thrown) {
        Optional<NonRecoverableSinkFailure> failure = ExceptionUtils.findThrowable(thrown,
                NonRecoverableSinkFailure.class);
        assertThat(failure).as("a failure Flink does not restart, in %s", thrown).isPresent();
        assertThat(failure.get().getMessage()).contains("too many filtered rows").contains("error log http")
                .doesNotContain("\n");
        assertThat(ExceptionUtils.findThrowable(thrown, e -> e instanceof TransactionException t
                && t.failureClass() == FailureClass.DATA_ERROR)).as("a data error in %s", thrown).isPresent();
    }

    @Test
    void strictModeRefusalFailsTheMultiTableSinkOnceAsADataError() throws Exception {
        var h = harness(new MultiTableSinkFunction<>(multiTable(true)));
        for (StreamRecord<DefaultStarRocksRowData> row : orderWithBadItem("rel")) {
            h.processElement(row);
        }

        assertThatThrownBy(() -> h.snapshot(1, 0)).satisfies(FilteredRowsSinkTest::assertFailsOnceInOneLine);
        assertThat(sr.emulator().rowCount("rel", "orders")).as("the whole transaction is refused").isZero();
        assertThatThrownBy(h::close).satisfies(FilteredRowsSinkTest::assertFailsOnceInOneLine);
    }

    @Test
    void withoutStrictModeAValueThatDoesNotConvertLoadsAsNull() throws Exception {
        var h = harness(new MultiTableSinkFunction<>(multiTable(false)));
        for (StreamRecord<DefaultStarRocksRowData> row : orderWithBadItem("rel")) {
            h.processElement(row);
        }
        h.snapshot(1, 0);
        h.close();

        assertThat(sr.emulator().query("SELECT qty FROM rel.items WHERE id = 2").rows())
                .as("StarRocks' non-strict conversion: NULL").singleElement()
                .satisfies(r -> assertThat(r.get(0)).isNull());
        assertThat(sr.emulator().rowCount("rel", "orders")).isEqualTo(1);
    }

    @Test
    void strictModeRefusalFailsTheDorisExactlyOnceSinkOnceAsADataError() throws Exception {
        try (DorisEmulator doris = DorisEmulator.builder().ddl("CREATE DATABASE eo; CREATE TABLE eo.items (id BIGINT "
                + "NOT NULL, qty INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1").build().start()) {
            var h = harness(new ExactlyOnceSinkFunction<>(StarRocksSinkOptions.builder()
                    .withProperty("sink.target", "doris")
                    .withProperty("fenodes", doris.feHostPort())
                    .withProperty("table.identifier", "eo.items")
                    .withProperty("username", "root")
                    .withProperty("password", "")
                    .withProperty("sink.enable-2pc", "true")
                    .withProperty("sink.label-prefix", "filtered-doris")
                    .withProperty("sink.max-retries", "0")
                    .withProperty("sink.properties.format", "json")
                    .withProperty("sink.properties.strict_mode", "true")
                    .build()));
            h.processElement(orderWithBadItem("eo").get(1));

            assertThatThrownBy(() -> h.snapshot(1, 0)).satisfies(FilteredRowsSinkTest::assertFailsOnceInOneLine);
            assertThatThrownBy(h::close).satisfies(FilteredRowsSinkTest::assertFailsOnceInOneLine);
            assertThat(doris.rowCount("eo", "items")).isZero();
        }
    }

    @Test
    void aMaxFilterRatioThatAdmitsTheFilteredRowsCommitsTheRest() throws Exception {
        var h = harness(new MultiTableSinkFunction<>(multiTable(true, "1")));
        for (StreamRecord<DefaultStarRocksRowData> row : orderWithBadItem("rel")) {
            h.processElement(row);
        }
        h.snapshot(1, 0);
        h.close();

        assertThat(sr.emulator().rowCount("rel", "orders")).isEqualTo(1);
        assertThat(sr.emulator().rowCount("rel", "items")).as("filtered, as max_filter_ratio = 1 allows").isZero();
    }
}
