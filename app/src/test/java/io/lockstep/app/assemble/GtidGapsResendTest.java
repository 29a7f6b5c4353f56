package io.lockstep.app.assemble;

import static io.lockstep.app.assemble.CommitMessages.order;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.flink.row.LoadRow;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A source partition that sees every other GTID of its server (Maxwell with a topic per database, Debezium MySQL
 * skipping transactions without captured tables): the committed GTID set stays bounded ({@link GtidSet#WINDOW}) and
 * the decisions stay right: a recent re-send dropped, a late out-of-order GTID within the window loaded, a GTID below
 * the window's floor taken as a re-send, a fresh one loaded.
 */
class GtidGapsResendTest {

    private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final long TS = 1_767_225_600;

    private final CommitMessages m = new CommitMessages();
    private AssemblerHarness harness;

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    private List<SourceEvent> tx(long n) {
        return m.maxwell(n, null, 0, UUID + ":" + n, null, TS + n, order((int) n, "n"));
    }

    @Test
    void twentyThousandTransactionsWithAGapEachKeepTheCommitPositionSmallAndDecideRight() throws Exception {
        harness = new AssemblerHarness(new MaxwellTransactionAssembler(
                TableRouter.parse(null, "dw", UnknownTableMode.FAIL), AssemblerOptions.defaults()));
        String last = null;
        for (long n = 2; n <= 40_000; n += 2) {
            harness.sendAll(tx(n));
            if (n % 2_000 == 0) {
                List<LoadRow> emitted = harness.takeEmittedWithPositions();
                assertThat(emitted).hasSize(1_000);
                last = emitted.get(emitted.size() - 1).getCommitPosition();
                assertThat(last.getBytes(StandardCharsets.UTF_8).length).isLessThan(20_000);
            }
        }
        assertThat(last).contains("\"gtidSet\":{\"" + UUID + "\":[[1,39000],[39002,39002],");

        // a late commit (replica_preserve_commit_order=OFF) within the window: new
        harness.sendAll(tx(39_001));
        assertThat(harness.takeEmittedRowTexts()).containsExactly(order(39_001, "n"));

        // a restart re-sends a recent one, a never-seen GTID below the window's floor (taken as committed) and the
        // committed one; then a fresh one
        harness.sendAll(tx(39_998));
        harness.sendAll(tx(38_001));
        harness.sendAll(tx(39_001));
        harness.sendAll(tx(40_002));
        List<LoadRow> emitted = harness.takeEmittedWithPositions();
        assertThat(emitted).extracting(LoadRow::getRow).containsExactly(order(40_002, "n"));
        assertThat(emitted.get(0).getCommitPosition().getBytes(StandardCharsets.UTF_8).length).isLessThan(20_000);
        assertThat(harness.takeEmittedRowTexts()).isEmpty();
    }
}
