package io.lockstep.flink.sink.v2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.restart.MultiTableRunState;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.fault.OpHold;
import io.lockstep.emulator.fault.TcpForwarder;
import io.lockstep.emulator.txn.TransactionSnapshot;
import io.lockstep.emulator.txn.TransactionStatus;
import io.lockstep.flink.sink.MultiTableRuntime;
import io.lockstep.flink.sink.RowRouting;
import io.lockstep.flink.sink.SinkSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Sink V2 multi-table writer at-least-once keeps its run in writer state: a writer whose FEs all became
 * unreachable leaves its shared transaction open at close, and a writer restored with that state (through the
 * writer-state serializer) rolls it back before it loads anything.
 */
class MultiTableSinkWriterStateTest {
    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder().ddl(
            "CREATE DATABASE rel; CREATE TABLE rel.orders (id BIGINT, note VARCHAR(20)) DUPLICATE KEY (id); "
                    + "CREATE TABLE rel.items (id BIGINT, note VARCHAR(20)) DUPLICATE KEY (id)"));

    private static StarRocksSinkOptions options(String loadUrl) {
        return StarRocksSinkOptions.builder()
                .withProperty("load-url", loadUrl)
                .withProperty("database-name", "*")
                .withProperty("table-name", "*")
                .withProperty("username", "root")
                .withProperty("sink.version", "V2")
                .withProperty("sink.transaction.multi-table.enabled", "true")
                .withProperty("sink.buffer-flush.interval-ms", "300000")
                .withProperty("sink.label-prefix", "mt-w")
                .withProperty("sink.max-retries", "0")
                .withProperty("sink.properties.format", "json")
                .withProperty("sink.properties.strip_outer_array", "true")
                .build();
    }

    private static MultiTableSinkWriter<DefaultStarRocksRowData> writer(String loadUrl,
                                                                         List<MultiTableRunState> recovered) {
        StarRocksSinkOptions options = options(loadUrl);
        return new MultiTableSinkWriter<>(new MultiTableRuntime.Start(SinkSettings.from(options),
                RowRouting.from(options.sinkConfig()), 0, UnregisteredMetricsGroup.createOperatorMetricGroup(), null,
                recovered, null));
    }

    private static void transaction(MultiTableSinkWriter<DefaultStarRocksRowData> w, long id) throws Exception {
        w.write(row("orders", id, false), null);
        w.write(row("items", id, true), null);
    }

    private static DefaultStarRocksRowData row(String table, long id, boolean end) {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, "rel", table,
                "{\"id\":" + id + ",\"note\":\"n" + id + "\"}");
        row.setSourcePartition(0);
        row.setTransactionEnd(end);
        return row;
    }

    private List<String> openLabels() {
        return sr.emulator().transactions("rel").stream()
                .filter(t -> t.status() == TransactionStatus.PREPARE || t.status() == TransactionStatus.PREPARED)
                .map(TransactionSnapshot::label).toList();
    }

    @Test
    void aRestoredWriterRollsBackWhatTheFailedWriterLeftOpenAfterItsCheckpoint() throws Exception {
        List<MultiTableRunState> recovered = new ArrayList<>();
        String left;
        try (TcpForwarder fe = TcpForwarder.inFrontOf(sr.emulator().feUrl())) {
            var failed = writer(fe.address(), List.of());
            transaction(failed, 1);
            failed.flush(false);
            MultiTableRunStateSerializer serializer = new MultiTableRunStateSerializer();
            for (MultiTableRunState state : failed.snapshotState(1)) {
                recovered.add(serializer.deserialize(serializer.getVersion(), serializer.serialize(state)));
            }
            assertThat(recovered).hasSize(1).first().satisfies(s -> assertThat(s.database()).isEqualTo("rel"));
            // the next shared transaction takes one load, held at the BE (after the FE's redirect) while the FE is cut
            OpHold load = sr.emulator().faults().hold(FaultOp.LOAD);
            failed.write(row("orders", 2, true), null);
            assertThat(load.awaitArrived(20, TimeUnit.SECONDS)).isTrue();
            left = openLabels().get(0);
            fe.cut();
            load.release();
            // the load (to the BE, which stays reachable) completes before close, which would cut it off
            await().atMost(Duration.ofSeconds(20)).until(() -> failed.runtime().bufferedBytes() == 0);
            failed.close();
        }
        assertThat(sr.emulator().labelState("rel", left)).as("no FE answered the rollback at close")
                .isEqualTo(TransactionStatus.PREPARE);

        var restored = writer(sr.emulator().feUrl().replace("http://", ""), recovered);

        assertThat(sr.emulator().labelState("rel", left)).isEqualTo(TransactionStatus.ABORTED);
        assertThat(openLabels()).isEmpty();
        restored.close();
    }
}
