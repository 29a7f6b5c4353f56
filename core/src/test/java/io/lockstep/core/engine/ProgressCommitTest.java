package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.metrics.MetricNames;
import io.lockstep.core.progress.ProgressSettings;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.core.progress.SourcePartition;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The exactly-once engine puts, into each shared transaction, the progress rows of exactly the source transactions
 * whose rows that commit makes visible (manual clock, fake client, no threads).
 */
class ProgressCommitTest {
    private static final SourcePartition TOPIC_0 = new SourcePartition("topic", 0);
    private static final SourcePartition OTHER_0 = new SourcePartition("other", 0);
    private final EngineFixture f = new EngineFixture(b -> b.database("db")
            .progress(new ProgressSettings("job-7", new ProgressTable("db", "progress"))));

    @AfterEach
    void close() {
        f.close();
    }

    private List<String> progressLoads() {
        return f.client.calls("load").stream().filter(c -> c.table().equals("progress")).map(c -> c.body()).toList();
    }

    @Test
    void aCommitCarriesThePositionsOfTheTransactionsItsChunksHoldAndNoLaterOne() throws Exception {
        f.write(0, "orders", "a");
        f.engine.txnEnd(0, TOPIC_0, 5, null); // first end: frozen at once
        f.drive(); // T0: the shared transaction t-0-r1-m1 is open and holds a
        f.clock.advanceMs(1000);
        f.write(0, "orders", "c");
        f.engine.txnEnd(0, OTHER_0, 40, null); // frozen (1000 ms after the last switch), not loaded yet
        f.engine.runOnce(); // the timer starts the commit: its cut covers a and c; c's load waits in the executor
        f.clock.advanceMs(200);
        f.write(0, "orders", "d");
        f.engine.txnEnd(0, TOPIC_0, 7, null); // frozen after the cut: belongs to the next shared transaction
        f.drive(); // c loads, the progress rows load, m1 commits

        assertThat(f.client.calls("commit")).hasSize(1);
        List<String> loads = progressLoads();
        assertThat(loads).hasSize(1);
        assertThat(loads.get(0)).contains("{\"job_id\":\"job-7\",\"source\":\"topic\",\"source_partition\":0,"
                        + "\"position\":5,\"run_id\":\"r1\",\"label\":\"t-0-r1-m1\"")
                .contains("\"source\":\"other\",\"source_partition\":0,\"position\":40")
                .contains("\"source\":\"#run:r1\",\"source_partition\":0,\"position\":1,\"run_id\":\"r1\","
                        + "\"label\":\"t-0-r1-m1\"")
                .doesNotContain("\"position\":7");
        List<FakeTransactionClient.Call> m1Loads = f.client.calls("load").stream()
                .filter(c -> c.label().equals("t-0-r1-m1")).toList();
        assertThat(m1Loads.get(m1Loads.size() - 1).table()).as("progress rows go last, right before the commit")
                .isEqualTo("progress");
        assertThat(f.metrics.count(MetricNames.COMMITTED_ROWS)).as("a and c; the progress rows are not counted")
                .isEqualTo(2);

        f.engine.requestFlush(); // d is committed under m2
        f.drive();
        assertThat(progressLoads()).hasSize(2);
        assertThat(progressLoads().get(1)).contains("\"source\":\"topic\",\"source_partition\":0,\"position\":7,"
                + "\"run_id\":\"r1\",\"label\":\"t-0-r1-m2\"").doesNotContain("\"source\":\"other\"");
    }

    @Test
    void aFlushCoversEveryEndedTransaction() throws Exception {
        f.drive();
        f.write(1, "orders", "a");
        f.engine.txnEnd(1, new SourcePartition("topic", 1), 11, null);
        f.write(1, "orders", "b");
        f.engine.txnEnd(1, new SourcePartition("topic", 1), 12, null); // inside the mini interval
        f.engine.requestFlush();
        f.drive();
        assertThat(progressLoads()).hasSize(1);
        assertThat(progressLoads().get(0)).contains("\"source_partition\":1,\"position\":12");
    }

    @Test
    void transactionEndsWithoutAPositionAreRefusedInThisMode() {
        assertThatThrownBy(() -> f.engine.txnEnd(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has no source position");
        assertThatThrownBy(() -> f.engine.txnEnd(0, TOPIC_0, -1, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has position -1");
    }

    /**
     * A rebuilt transaction's end covers table-topic partitions no row carries: a commit writes each as an ordinary
     * progress row with the data it makes visible, highest wins, and never one whose end froze after its cut.
     */
    @Test
    void aCommitCarriesTheCoveredPositionsOfTheEndsItsCutCoversHighestWins() throws Exception {
        SourcePartition rebuilt = new SourcePartition("pg.transaction+rebuilt", 0);
        SourcePartition orders0 = new SourcePartition("pg.public.orders#id1", 0);
        SourcePartition orders1 = new SourcePartition("pg.public.orders#id1", 1);
        f.write(0, "orders", "a");
        f.engine.txnEnd(0, rebuilt, 1, null, Map.of(orders0, 10L, orders1, 4L)); // frozen at once
        f.drive(); // m1 is open and holds a
        f.clock.advanceMs(1000);
        f.write(0, "orders", "c");
        f.engine.txnEnd(0, rebuilt, 2, null, Map.of(orders0, 8L, orders1, 6L)); // 8 < 10: the higher stays
        f.engine.runOnce(); // the cut covers a and c
        f.clock.advanceMs(200);
        f.write(0, "orders", "d");
        f.engine.txnEnd(0, rebuilt, 3, null, Map.of(orders0, 20L)); // frozen after the cut
        f.drive();

        assertThat(f.client.calls("commit")).hasSize(1);
        assertThat(progressLoads()).hasSize(1);
        assertThat(progressLoads().get(0))
                .contains("\"source\":\"pg.transaction+rebuilt\",\"source_partition\":0,\"position\":2,")
                .contains("\"source\":\"pg.public.orders#id1\",\"source_partition\":0,\"position\":10,"
                        + "\"run_id\":\"r1\",\"label\":\"t-0-r1-m1\"")
                .contains("\"source\":\"pg.public.orders#id1\",\"source_partition\":1,\"position\":6,")
                .doesNotContain("\"position\":8,").doesNotContain("\"position\":4,")
                .doesNotContain("\"position\":20,");

        f.engine.requestFlush();
        f.drive();
        assertThat(progressLoads()).hasSize(2);
        assertThat(progressLoads().get(1))
                .contains("\"source\":\"pg.public.orders#id1\",\"source_partition\":0,\"position\":20,"
                        + "\"run_id\":\"r1\",\"label\":\"t-0-r1-m2\"")
                .doesNotContain("\"source_partition\":1,\"position\":6");
    }

    @Test
    void aNegativeCoveredPositionIsRefusedNamingItsPartition() {
        assertThatThrownBy(() -> f.engine.txnEnd(0, TOPIC_0, 3, null, Map.of(OTHER_0, -1L)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("covers other/0 at position -1");
    }
}
