package io.lockstep.core.restart;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.client.LabelState;
import io.lockstep.core.client.LoadReply;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.label.RunId;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.label.ExactlyOnceLabelScheme;
import io.lockstep.core.label.LabelGenerator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * Lingering abort and run-id claim with one label per flush ({@link ExactlyOnceLabelScheme#ONE_PER_FLUSH}, Doris):
 * labels {@code ...-{n}_{k}} are walked flush by flush, only by label-state queries (no empty-load probing).
 */
class OnePerFlushLingeringTest {
    private static final TableId ORDERS = new TableId("shop", "orders");

    /** Label states by label; rollback moves PREPARE/PREPARED to ABORTED; records queries and rollbacks. */
    static final class StateClient implements TransactionClient {
        final Map<String, LabelState> states = new HashMap<>();
        final List<String> queried = new ArrayList<>();
        final List<String> rolledBack = new ArrayList<>();

        /** Labels loaded: only the run-id claim's marker, an empty load. */
        final List<String> loaded = new ArrayList<>();

        @Override
        public long begin(TransactionRef txn, int timeoutSeconds) {
            return -1; // Doris: nothing is sent before the load
        }

        @Override
        public LoadReply load(TransactionRef txn, String table, byte[] body, Map<String, String> props) {
            if (body.length != 0) {
                throw new UnsupportedOperationException("recovery loads no rows");
            }
            loaded.add(txn.label());
            states.put(txn.label(), LabelState.PREPARED);
            return new LoadReply(0, 1);
        }

        @Override
        public void prepare(TransactionRef txn) {
            throw new UnsupportedOperationException("not used by recovery");
        }

        @Override
        public void commit(TransactionRef txn) {
            states.put(txn.label(), LabelState.VISIBLE);
        }

        @Override
        public void rollback(TransactionRef txn) {
            rolledBack.add(txn.label());
            states.put(txn.label(), LabelState.ABORTED);
        }

        @Override
        public LabelState labelState(String database, String label) {
            queried.add(label);
            return states.getOrDefault(label, LabelState.UNKNOWN);
        }

        @Override
        public void cancel(String database, String table, String label) {
            rollback(TransactionRef.singleTable(database, table, label));
        }

        @Override
        public void close() {
        }
    }

    @Test
    void everyFlushOfEveryCheckpointAfterTheRestoredOneIsProbedAndOpenOnesAborted() {
        StateClient client = new StateClient();
        LabelGenerator labels = new LabelGenerator("d", 0, "run1");
        client.states.put(labels.exactlyOnceFlushLabel("orders", 5, 1), LabelState.VISIBLE); // restored, committed
        client.states.put(labels.exactlyOnceFlushLabel("orders", 6, 1), LabelState.PREPARED);
        client.states.put(labels.exactlyOnceFlushLabel("orders", 6, 2), LabelState.PREPARED);
        client.states.put(labels.exactlyOnceFlushLabel("orders", 7, 1), LabelState.ABORTED);
        client.states.put(labels.exactlyOnceFlushLabel("orders", 7, 2), LabelState.PREPARE);
        LingeringTransactionAborter aborter = LingeringTransactionAborter.forCheckNum(client, -1,
                ExactlyOnceLabelScheme.ONE_PER_FLUSH);

        LingeringAbortReport report = aborter.abortLingering(
                List.of(new LingeringScope("d", 0, "run1", 5, List.of(ORDERS))), Set.of());

        assertThat(report.rolledBack()).containsExactly(labels.exactlyOnceFlushLabel("orders", 6, 1),
                labels.exactlyOnceFlushLabel("orders", 6, 2), labels.exactlyOnceFlushLabel("orders", 7, 2));
        assertThat(client.queried).as("stops at the first checkpoint without a first flush")
                .containsExactly(labels.exactlyOnceFlushLabel("orders", 6, 1),
                        labels.exactlyOnceFlushLabel("orders", 6, 2), labels.exactlyOnceFlushLabel("orders", 6, 3),
                        labels.exactlyOnceFlushLabel("orders", 7, 1), labels.exactlyOnceFlushLabel("orders", 7, 2),
                        labels.exactlyOnceFlushLabel("orders", 7, 3), labels.exactlyOnceFlushLabel("orders", 8, 1));
        assertThat(client.states.get(labels.exactlyOnceFlushLabel("orders", 5, 1))).isEqualTo(LabelState.VISIBLE);
    }

    @Test
    void heldLabelsAreSkippedAndCommittedOnesLeftAlone() {
        StateClient client = new StateClient();
        LabelGenerator labels = new LabelGenerator("d", 0, "run1");
        String held = labels.exactlyOnceFlushLabel("orders", 3, 1);
        client.states.put(held, LabelState.PREPARED);
        client.states.put(labels.exactlyOnceFlushLabel("orders", 3, 2), LabelState.COMMITTED);

        LingeringAbortReport report = LingeringTransactionAborter.forCheckNum(client, -1,
                ExactlyOnceLabelScheme.ONE_PER_FLUSH).abortLingering(
                List.of(new LingeringScope("d", 0, "run1", 2, List.of(ORDERS))), Set.of(held));

        assertThat(report.rolledBack()).isEmpty();
        assertThat(report.committed()).containsExactly(labels.exactlyOnceFlushLabel("orders", 3, 2));
        assertThat(client.queried).doesNotContain(held);
        assertThat(client.states.get(held)).isEqualTo(LabelState.PREPARED);
    }

    @Test
    void theRunIdClaimChecksTheFirstFlushLabelOfTheNextCheckpoint() {
        StateClient client = new StateClient();
        String taken = RunId.derived("job", List.of(), 4, 0, 0);
        String takenLabel = new LabelGenerator("d", 0, taken).exactlyOnceFlushLabel("orders", 5, 1);
        client.states.put(takenLabel, LabelState.PREPARED);
        LingeringTransactionAborter aborter = LingeringTransactionAborter.forCheckNum(client, -1,
                ExactlyOnceLabelScheme.ONE_PER_FLUSH);

        String runId = RunIdClaim.claim(client, aborter, "d", 0, "job", List.of(), 4, List.of(ORDERS), Set.of());

        assertThat(runId).isEqualTo(RunId.derived("job", List.of(), 4, 0, 1));
        String marker = new LabelGenerator("d", 0, runId).exactlyOnceFlushLabel("orders", 4, 1);
        assertThat(client.loaded).as("the claim marker: an empty load under checkpoint 4's label").containsExactly(
                marker);
        assertThat(client.rolledBack).containsExactly(takenLabel, marker);
    }
}
