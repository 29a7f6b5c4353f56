package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import io.lockstep.emulator.txn.TransactionSnapshot;
import io.lockstep.emulator.txn.TransactionStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.streaming.api.operators.StreamSink;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The exactly-once {@link MultiTableSinkFunction} in Flink's operator test harness (no cluster) against the emulator:
 * a transaction end's commit source and position reach the progress table as a {@code #commit:} row in the shared
 * transaction that commits its data, the last end of a commit wins, and a legacy progress table without
 * {@code commit_position} gets none while the data still commits.
 */
class MultiTableCommitPositionHarnessTest {
    private static final ProgressTable PROGRESS = new ProgressTable("shop", ProgressTable.DEFAULT_NAME);
    private static final String DATA_DDL = "CREATE DATABASE shop; CREATE TABLE shop.orders (id BIGINT NOT NULL, "
            + "note VARCHAR(20)) PRIMARY KEY (id) DISTRIBUTED BY HASH(id); CREATE TABLE shop.order_log (id BIGINT "
            + "NOT NULL, note VARCHAR(20)) DUPLICATE KEY (id) DISTRIBUTED BY HASH(id);";
    private static final String LEGACY_PROGRESS = new ProgressTable("shop", "legacy_progress").createTableSql()
            .replace(",\n  commit_position VARCHAR(65533) NULL", "");

    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder()
            .ddl(DATA_DDL + PROGRESS.createTableSql() + LEGACY_PROGRESS));

    private StarRocksSinkOptions options(String progressTable) {
        return StarRocksSinkOptions.builder()
                .withProperty("load-url", sr.emulator().feUrl().replace("http://", ""))
                .withProperty("database-name", "shop")
                .withProperty("table-name", "*")
                .withProperty("username", "root")
                .withProperty("sink.version", "V2")
                .withProperty("sink.semantic", "exactly-once")
                .withProperty("sink.transaction.multi-table.enabled", "true")
                .withProperty("sink.transaction.multi-table.job-id", "cp-job")
                .withProperty("sink.transaction.multi-table.progress-table", progressTable)
                .withProperty("sink.buffer-flush.interval-ms", "300000")
                .withProperty("sink.label-prefix", "cp")
                .withProperty("sink.properties.format", "json")
                .build();
    }

    /** Source transaction {@code n} of partition 1: an order, a log row, its end with its commit position. */
    private static List<StreamRecord<DefaultStarRocksRowData>> transaction(long n) {
        List<StreamRecord<DefaultStarRocksRowData>> rows = new ArrayList<>();
        for (String table : List.of("orders", "order_log")) {
            DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, "shop", table,
                    "{\"id\":" + n + ",\"note\":\"n" + n + "\"}");
            row.setSourcePartition(1);
            row.setSource("oltp.all");
            row.setSourcePosition(n);
            if (table.equals("order_log")) {
                row.setTransactionEnd(true);
                row.setCommitSource("postgresql:pg1");
                row.setCommitPosition("{\"lsn\":" + n + "}");
            }
            rows.add(new StreamRecord<>(row));
        }
        return rows;
    }

    /** Runs transactions 10, 11, 12, then checkpoint 1 (which commits them). */
    private void runOneCheckpoint(String progressTable) throws Exception {
        MultiTableSinkFunction<DefaultStarRocksRowData> sink = new MultiTableSinkFunction<>(options(progressTable));
        try (OneInputStreamOperatorTestHarness<DefaultStarRocksRowData, Object> h =
                     new OneInputStreamOperatorTestHarness<>(new StreamSink<>(sink), 4, 1, 0)) {
            h.getStreamConfig().setCheckpointingEnabled(true);
            h.setup();
            h.open();
            for (long n = 10; n <= 12; n++) {
                h.processElements(transaction(n));
            }
            h.snapshot(1, 0);
        }
    }

    private List<List<Object>> rows(String sql) {
        return sr.emulator().query(sql).rows();
    }

    @Test
    void theCommitRowCommitsWithTheDataUnderTheSameLabelAndTheLastEndWins() throws Exception {
        runOneCheckpoint(PROGRESS.table());
        List<String> dataLabels = sr.emulator().transactions("shop").stream()
                .filter(t -> t.status() == TransactionStatus.VISIBLE && t.label().endsWith("-m1"))
                .map(TransactionSnapshot::label).toList();
        assertThat(dataLabels).hasSize(1);
        assertThat(rows("SELECT source, source_partition, position, label, commit_position FROM "
                + PROGRESS.qualifiedName() + " WHERE source NOT LIKE '#run:%' ORDER BY source")).containsExactly(
                List.of("#commit:postgresql:pg1", 1, 12L, dataLabels.get(0), "{\"lsn\":12}"),
                Arrays.asList("oltp.all", 1, 12L, dataLabels.get(0), null));
        assertThat(rows("SELECT COUNT(*) FROM shop.order_log").get(0).get(0)).isEqualTo(3L);
    }

    @Test
    void aLegacyProgressTableGetsNoCommitRowsAndTheDataStillCommits() throws Exception {
        runOneCheckpoint("legacy_progress");
        assertThat(rows("SELECT source, position FROM shop.legacy_progress WHERE source NOT LIKE '#run:%'"))
                .containsExactly(List.of("oltp.all", 12L));
        assertThat(rows("SELECT COUNT(*) FROM shop.order_log").get(0).get(0)).isEqualTo(3L);
    }
}
