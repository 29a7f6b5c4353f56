package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.metrics.MetricNames;
import io.lockstep.core.progress.ProgressSettings;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.core.progress.SourcePartition;
import java.util.List;
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
}
