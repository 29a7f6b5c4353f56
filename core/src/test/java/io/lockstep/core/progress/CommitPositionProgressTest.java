package io.lockstep.core.progress;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.core.time.Ticker;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.storage.QueryResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The source commit positions of the multi-table exactly-once mode against the emulator: the {@code #commit:} rows are
 * committed in the shared transaction of the data, the last transaction end wins, they are read back as commit
 * positions (never as source positions), and a legacy seven-column progress table gets none, with one WARN naming
 * the ALTER TABLE that upgrades it — after which they are written.
 */
@Timeout(30)
class CommitPositionProgressTest {
    private static final String COMMIT_SOURCE = "postgresql:pg1";
    private static final String LEGACY_DDL = EoShop.DDL.replace(",\n  commit_position VARCHAR(65533) NULL", "");
    private final InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private StarRocksEmulator sr;
    /** Whether the progress table has only the legacy seven columns now. */
    private boolean legacy;

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
        if (sr != null) {
            sr.close();
        }
    }

    private void start(String ddl) throws Exception {
        sr = StarRocksEmulator.builder().ddl(ddl).build();
        sr.start();
    }

    private EoShop.Run open(String attemptKey) throws Exception {
        EoShop.Run run = EoShop.open(sr, attemptKey, 0, 60_000, 100, Ticker.system(), metrics);
        toClose.add(run);
        return run;
    }

    /** Position text of source transaction {@code n}, as an assembler would write it (opaque to the sink). */
    private static String text(int n) {
        return "{\"kind\":\"pg\",\"lsn\":\"0/" + Integer.toHexString(1000 + n) + "\",\"txId\":\"" + (700 + n) + "\"}";
    }

    /** Source transactions {@code from..to-1} with their commit positions, one shared transaction. */
    private static void commit(EoShop.Run run, int from, int to) throws InterruptedException {
        for (int n = from; n < to; n++) {
            int partition = n % 2;
            run.engine.write(partition, "shop", "orders", EoShop.json("{\"order_id\":" + n + ",\"version\":1}"));
            run.engine.txnEnd(partition, new SourcePartition(EoShop.SOURCE, partition), n,
                    new CommitPosition(COMMIT_SOURCE, text(n)));
        }
        run.engine.flush();
    }

    /** source, partition -> position, label, commit_position of every row of the job but run rows. */
    private Map<String, List<Object>> progressRows() {
        QueryResult r = sr.query("SELECT source, source_partition, position, label"
                + (legacy ? "" : ", commit_position") + " FROM shop.lockstep_progress WHERE "
                + "job_id = '" + EoShop.JOB + "' AND source NOT LIKE '#run:%'");
        Map<String, List<Object>> rows = new TreeMap<>();
        for (List<Object> row : r.rows()) {
            rows.put(row.get(0) + "/" + row.get(1), row.subList(2, row.size()));
        }
        return rows;
    }

    @Test
    void theCommitRowIsCommittedWithTheDataUnderItsLabelAndTheLastTransactionEndWins() throws Exception {
        start(EoShop.DDL);
        EoShop.Run run = open("commit0001");
        commit(run, 0, 10);
        Map<String, List<Object>> first = progressRows();
        String label = (String) first.get(EoShop.SOURCE + "/0").get(1);
        assertThat(first).containsEntry("#commit:" + COMMIT_SOURCE + "/0", List.of(8L, label, text(8)))
                .containsEntry("#commit:" + COMMIT_SOURCE + "/1", List.of(9L, label, text(9)))
                .containsEntry(EoShop.SOURCE + "/1", Arrays.asList(9L, label, null));
        assertThat(label).as("the first shared transaction after the registration (m0) committed the data")
                .isEqualTo(new LabelGenerator("eo", 0, run.runId).sharedLabel(1));
        assertThat(sr.query("SELECT count(*) FROM shop.orders").rows().get(0).get(0)).isEqualTo(10L);

        commit(run, 10, 13);
        Map<String, List<Object>> second = progressRows();
        String next = (String) second.get(EoShop.SOURCE + "/0").get(1);
        assertThat(next).isEqualTo(new LabelGenerator("eo", 0, run.runId).sharedLabel(2));
        assertThat(second.get("#commit:" + COMMIT_SOURCE + "/0")).isEqualTo(List.of(12L, next, text(12)));
        assertThat(second.get("#commit:" + COMMIT_SOURCE + "/1")).isEqualTo(List.of(11L, next, text(11)));

        CommittedPositions read = ProgressStore.readCommittedPositions(EoShop.clientConfig(sr), EoShop.PROGRESS,
                EoShop.JOB);
        assertThat(read.bySource()).as("commit rows are never source positions")
                .isEqualTo(Map.of(EoShop.SOURCE, Map.of(0, 12L, 1, 11L)));
        assertThat(read.commits()).isEqualTo(Map.of(new SourcePartition(COMMIT_SOURCE, 0), text(12),
                new SourcePartition(COMMIT_SOURCE, 1), text(11)));
        run.close();
        EoShop.Run reopened = open("commit0002");
        assertThat(reopened.opened.positions().commits()).as("a sink open reads them too").isEqualTo(read.commits());
        assertThat(reopened.opened.positions().asMap()).isEqualTo(read.asMap());
    }

    @Test
    void aLegacyTableGetsNoCommitRowsAndOneWarnWithTheAlterThatUpgradesIt() throws Exception {
        legacy = true;
        start(LEGACY_DDL);
        PrintStream err = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        EoShop.Run run;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            run = open("legacy0001"); // slf4j-simple writes to System.err as it is at each line
        } finally {
            System.setErr(err);
        }
        String alter = "ALTER TABLE shop.lockstep_progress ADD COLUMN commit_position VARCHAR(65533) NULL";
        assertThat(log.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("WARN")).toList())
                .singleElement().asString().contains("has no commit_position column").endsWith(alter);
        commit(run, 0, 4);
        assertThat(progressRows()).containsOnlyKeys(EoShop.SOURCE + "/0", EoShop.SOURCE + "/1");
        CommittedPositions read = ProgressStore.readCommittedPositions(EoShop.clientConfig(sr), EoShop.PROGRESS,
                EoShop.JOB);
        assertThat(read.tableShape()).isEqualTo(ProgressTableShape.LEGACY);
        assertThat(read.commits()).isEmpty();
        assertThat(read.bySource()).isEqualTo(Map.of(EoShop.SOURCE, Map.of(0, 2L, 1, 3L)));
        run.close();

        sr.executeDdl(alter + ";"); // the documented upgrade, on the PRIMARY KEY table holding rows
        legacy = false;
        assertThat(progressRows().get(EoShop.SOURCE + "/0")).as("rows from before read NULL there")
                .containsExactly(2L, progressRows().get(EoShop.SOURCE + "/0").get(1), null);
        EoShop.Run upgraded = open("legacy0002");
        assertThat(upgraded.opened.positions().tableShape()).isEqualTo(ProgressTableShape.WITH_COMMIT_POSITIONS);
        commit(upgraded, 4, 6);
        assertThat(ProgressStore.readCommittedPositions(EoShop.clientConfig(sr), EoShop.PROGRESS, EoShop.JOB)
                .commits()).isEqualTo(Map.of(new SourcePartition(COMMIT_SOURCE, 0), text(4),
                new SourcePartition(COMMIT_SOURCE, 1), text(5)));
    }
}
