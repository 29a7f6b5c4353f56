package io.lockstep.core.restart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.txn.TransactionStatus;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link LingeringTransactionAborter} and {@link RestoredTransactionCommitter} against the emulator. */
class LingeringTransactionAborterTest {
    private static final String PREFIX = "eo-test";
    private static final String RUN = "run1";
    private static final int SUBTASK = 1;
    private static final TableId ORDERS = new TableId("shop", "orders");
    private static final TableId ITEMS = new TableId("shop", "order_items");

    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder().ddl(
            "CREATE DATABASE shop; "
                    + "CREATE TABLE shop.orders (id INT, note VARCHAR(20)) DUPLICATE KEY (id); "
                    + "CREATE TABLE shop.order_items (id INT, note VARCHAR(20)) DUPLICATE KEY (id)"));

    private TransactionClient client;
    private final LabelGenerator labels = new LabelGenerator(PREFIX, SUBTASK, RUN);

    @BeforeEach
    void openClient() {
        client = newClient(3);
    }

    @AfterEach
    void closeClient() {
        client.close();
    }

    private TransactionClient newClient(int maxRetries) {
        return new StarRocksTransactionClient(TransactionClientConfig.builder()
                .loadUrls(sr.emulator().feUrl().replace("http://", "")).username("root")
                .maxRetries(maxRetries).retryBackoff(1, 2).labelStateTimeoutMs(2_000).build(),
                LoadMetrics.noop());
    }

    private StarRocksEmulator emulator() {
        return sr.emulator();
    }

    /** Begins and loads one row under the label of {@code table} at {@code checkpoint}; PREPARE afterwards. */
    private TransactionRef open(TableId table, long checkpoint, int id) throws TransactionException {
        TransactionRef ref = TransactionRef.singleTable(table.database(), table.table(),
                labels.exactlyOnceLabel(table.table(), checkpoint));
        client.begin(ref, 600);
        client.load(ref, table.table(), ("[{\"id\":" + id + ",\"note\":\"x\"}]").getBytes(StandardCharsets.UTF_8),
                Map.of("format", "json", "strip_outer_array", "true"));
        return ref;
    }

    private TransactionRef prepared(TableId table, long checkpoint, int id) throws TransactionException {
        TransactionRef ref = open(table, checkpoint, id);
        client.prepare(ref);
        return ref;
    }

    private TransactionRef committed(TableId table, long checkpoint, int id) throws TransactionException {
        TransactionRef ref = prepared(table, checkpoint, id);
        client.commit(ref);
        return ref;
    }

    private TransactionStatus state(TransactionRef ref) {
        return emulator().labelState(ref.database(), ref.label());
    }

    private LingeringScope scope(long afterCheckpoint, TableId... tables) {
        return new LingeringScope(PREFIX, SUBTASK, RUN, afterCheckpoint, List.of(tables));
    }

    @Test
    void rollsBackPrepareAndPreparedLabelsNewerThanTheRestoredCheckpointAndStopsAtTheFirstUnknown()
            throws Exception {
        TransactionRef atRestored = prepared(ORDERS, 5, 1);   // held by the restored state: never touched
        TransactionRef preparedNewer = prepared(ORDERS, 6, 2);
        TransactionRef openNewer = open(ORDERS, 7, 3);
        TransactionRef afterGap = prepared(ORDERS, 9, 4);     // behind the unknown label 8: not reached

        LingeringAbortReport report = LingeringTransactionAborter.forCheckNum(client, -1)
                .abortLingering(List.of(scope(5, ORDERS)), Set.of(atRestored.label()));

        assertThat(report.rolledBack()).containsExactly(preparedNewer.label(), openNewer.label());
        assertThat(report.committed()).isEmpty();
        assertThat(report.leftOpen()).isEmpty();
        assertThat(report.probes()).as("6, 7, then 8 is unknown").isEqualTo(3);
        assertThat(state(preparedNewer)).isEqualTo(TransactionStatus.ABORTED);
        assertThat(state(openNewer)).isEqualTo(TransactionStatus.ABORTED);
        assertThat(state(atRestored)).isEqualTo(TransactionStatus.PREPARED);
        assertThat(state(afterGap)).isEqualTo(TransactionStatus.PREPARED);
        assertThat(emulator().rowCount("shop", "orders")).isZero();
    }

    @Test
    void leavesCommittedLabelsAloneSkipsAbortedOnesAndGoesOn() throws Exception {
        TransactionRef committed = committed(ORDERS, 3, 1);   // restored from an older checkpoint
        TransactionRef aborted = prepared(ORDERS, 4, 2);
        client.rollback(aborted);
        TransactionRef lingering = prepared(ORDERS, 5, 3);

        LingeringAbortReport report = LingeringTransactionAborter.forCheckNum(client, -1)
                .abortLingering(List.of(scope(2, ORDERS)), Set.of());

        assertThat(report.committed()).containsExactly(committed.label());
        assertThat(report.rolledBack()).containsExactly(lingering.label());
        assertThat(state(committed)).isEqualTo(TransactionStatus.VISIBLE);
        assertThat(state(lingering)).isEqualTo(TransactionStatus.ABORTED);
        assertThat(emulator().rowCount("shop", "orders")).as("the committed row stays").isEqualTo(1);
    }

    @Test
    void restoredLabelsNewerThanTheCheckpointAreNeitherQueriedNorTouched() throws Exception {
        TransactionRef held = prepared(ITEMS, 8, 1);
        TransactionRef lingering = prepared(ITEMS, 9, 2);

        LingeringAbortReport report = LingeringTransactionAborter.forCheckNum(client, -1)
                .abortLingering(List.of(scope(7, ITEMS)), Set.of(held.label()));

        assertThat(report.rolledBack()).containsExactly(lingering.label());
        assertThat(report.probes()).as("9, then 10 is unknown; 8 is skipped").isEqualTo(2);
        assertThat(state(held)).isEqualTo(TransactionStatus.PREPARED);
    }

    @Test
    void cancelsWhenTheRollbackFails() throws Exception {
        TransactionRef lingering = prepared(ORDERS, 2, 1);
        emulator().faults().failNext(FaultOp.ROLLBACK, 5, "FAILED", "injected rollback failure");
        try (TransactionClient noRetries = newClient(0)) {
            LingeringAbortReport report = LingeringTransactionAborter.forCheckNum(noRetries, -1)
                    .abortLingering(List.of(scope(1, ORDERS)), Set.of());

            assertThat(report.rolledBack()).isEmpty();
            assertThat(report.cancelled()).containsExactly(lingering.label());
        }
        assertThat(state(lingering)).isEqualTo(TransactionStatus.ABORTED);
    }

    @Test
    void reportsALabelLeftOpenWhenRollbackAndCancelFailAndNeverThrows() throws Exception {
        TransactionRef lingering = prepared(ORDERS, 2, 1);
        emulator().faults().failNext(FaultOp.ROLLBACK, 5, "FAILED", "injected rollback failure")
                .failNext(FaultOp.CANCEL, 5, "FAILED", "injected cancel failure");
        try (TransactionClient noRetries = newClient(0)) {
            LingeringAbortReport report = LingeringTransactionAborter.forCheckNum(noRetries, -1)
                    .abortLingering(List.of(scope(1, ORDERS)), Set.of());

            assertThat(report.leftOpen()).containsExactly(lingering.label());
            assertThat(report.ended()).isZero();
        }
        assertThat(state(lingering)).isEqualTo(TransactionStatus.PREPARED);
    }

    @Test
    void aFixedWindowStepsOverUnknownLabelsAndProbesEveryTableOfEveryScope() throws Exception {
        TransactionRef orders12 = prepared(ORDERS, 12, 1);    // 11 unknown: a checkpoint without orders rows
        TransactionRef items11 = open(ITEMS, 11, 2);
        LabelGenerator otherSubtask = new LabelGenerator(PREFIX, 0, "run0");
        TransactionRef otherRun = TransactionRef.singleTable("shop", "orders",
                otherSubtask.exactlyOnceLabel("orders", 11));
        client.begin(otherRun, 600);

        LingeringAbortReport report = LingeringTransactionAborter.forCheckNum(client, 3).abortLingering(List.of(
                scope(10, ORDERS, ITEMS), new LingeringScope(PREFIX, 0, "run0", 10, List.of(ORDERS))), Set.of());

        assertThat(report.rolledBack()).containsExactlyInAnyOrder(orders12.label(), items11.label(),
                otherRun.label());
        assertThat(report.probes()).as("3 labels per table and scope").isEqualTo(9);
    }

    @Test
    void aStatelessStartHasNothingToProbe() {
        LingeringAbortReport report = LingeringTransactionAborter.forCheckNum(client, -1)
                .abortLingering(List.of(), Set.of());

        assertThat(report.probes()).isZero();
        assertThat(report.ended()).isZero();
    }

    @Test
    void checkNumZeroProbesNothingAndBelowMinusOneIsRejected() throws Exception {
        TransactionRef lingering = prepared(ORDERS, 2, 1);

        LingeringAbortReport report = LingeringTransactionAborter.forCheckNum(client, 0)
                .abortLingering(List.of(scope(1, ORDERS)), Set.of());

        assertThat(report.probes()).isZero();
        assertThat(state(lingering)).isEqualTo(TransactionStatus.PREPARED);
        assertThatThrownBy(() -> LingeringTransactionAborter.forCheckNum(client, -2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sink.exactly-once.check-num-lingering-txn");
    }

    @Test
    void restoredLabelsAreCommittedAndRecommittingIsIdempotent() throws Exception {
        TransactionRef first = prepared(ORDERS, 4, 1);
        TransactionRef second = prepared(ITEMS, 4, 2);
        List<CheckpointedTransaction> restored = List.of(
                new CheckpointedTransaction("shop", "orders", first.label(), 4, RUN),
                new CheckpointedTransaction("shop", "order_items", second.label(), 4, RUN));

        RestoredTransactionCommitter.commitAll(client, restored);
        RestoredTransactionCommitter.commitAll(client, restored);

        assertThat(state(first)).isEqualTo(TransactionStatus.VISIBLE);
        assertThat(state(second)).isEqualTo(TransactionStatus.VISIBLE);
        assertThat(emulator().rowCount("shop", "orders")).isEqualTo(1);
        assertThat(emulator().rowCount("shop", "order_items")).isEqualTo(1);
    }

    @Test
    void aRestoredLabelThatWasAbortedFailsRecoveryNamingIt() throws Exception {
        TransactionRef expired = prepared(ORDERS, 4, 1);
        client.rollback(expired);
        CheckpointedTransaction restored = new CheckpointedTransaction("shop", "orders", expired.label(), 4, RUN);

        assertThatThrownBy(() -> RestoredTransactionCommitter.commitAll(client, List.of(restored)))
                .isInstanceOf(TransactionException.class)
                .hasMessageContaining(expired.label())
                .hasMessageContaining("checkpoint 4")
                .hasMessageContaining("ABORTED");
    }
}
