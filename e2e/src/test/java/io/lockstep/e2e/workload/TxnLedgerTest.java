package io.lockstep.e2e.workload;

import static io.lockstep.e2e.workload.TxnLedger.txnId;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The all-or-nothing check the end-to-end readers apply to each target snapshot. */
class TxnLedgerTest {

    /** Session 1: t1 inserts a customer and an order; t2 updates both and deletes item 7:1; t3 inserts a document. */
    private static TxnLedger ledger() {
        TxnLedger ledger = new TxnLedger();
        ledger.record(txnId(1, 1), List.of("customers/1", "orders/7", "order_items/7:1"), List.of());
        ledger.record(txnId(1, 2), List.of("customers/1", "orders/7"), List.of("order_items/7:1"));
        ledger.record(txnId(1, 3), List.of("documents/9"), List.of());
        ledger.record(txnId(2, 1), List.of("customers/5"), List.of());
        return ledger;
    }

    private static Map<String, Long> snapshot(Object... keysAndIds) {
        Map<String, Long> visible = new HashMap<>();
        for (int i = 0; i < keysAndIds.length; i += 2) {
            visible.put((String) keysAndIds[i], (Long) keysAndIds[i + 1]);
        }
        return visible;
    }

    @Test
    void everyCommittedPrefixPerSessionIsConsistent() {
        TxnLedger ledger = ledger();
        assertThat(ledger.partlyVisible(snapshot())).isEmpty();
        assertThat(ledger.partlyVisible(snapshot("customers/1", txnId(1, 1), "orders/7", txnId(1, 1),
                "order_items/7:1", txnId(1, 1)))).isEmpty();
        // t2 deleted the item: absent is right
        assertThat(ledger.partlyVisible(snapshot("customers/1", txnId(1, 2), "orders/7", txnId(1, 2),
                "customers/5", txnId(2, 1)))).isEmpty();
        assertThat(ledger.partlyVisible(snapshot("customers/1", txnId(1, 2), "orders/7", txnId(1, 2),
                "documents/9", txnId(1, 3)))).isEmpty();
    }

    @Test
    void aTransactionVisibleInOneTableAndNotAnotherIsReported() {
        TxnLedger ledger = ledger();
        // t1's order without its customer row
        assertThat(ledger.partlyVisible(snapshot("orders/7", txnId(1, 1), "order_items/7:1", txnId(1, 1))))
                .containsExactly(txnId(1, 1));
        // t2's customer update visible, its order update not
        assertThat(ledger.partlyVisible(snapshot("customers/1", txnId(1, 2), "orders/7", txnId(1, 1))))
                .contains(txnId(1, 1), txnId(1, 2));
        // t2's updates visible but its delete not applied
        assertThat(ledger.partlyVisible(snapshot("customers/1", txnId(1, 2), "orders/7", txnId(1, 2),
                "order_items/7:1", txnId(1, 1)))).contains(txnId(1, 2));
        // t3 visible while t2 is not: a later transaction overtook an earlier one of the same session
        assertThat(ledger.partlyVisible(snapshot("customers/1", txnId(1, 1), "orders/7", txnId(1, 1),
                "order_items/7:1", txnId(1, 1), "documents/9", txnId(1, 3)))).contains(txnId(1, 3));
        assertThat(ledger.mismatches(snapshot("orders/7", txnId(1, 1), "order_items/7:1", txnId(1, 1))))
                .containsExactly("customers/1 expected 1000000001 visible null (horizon 1000000001)");
    }

    @Test
    void aRowTheWorkloadNeverWroteIsReported() {
        assertThat(ledger().partlyVisible(snapshot("customers/99", txnId(3, 1)))).contains(txnId(3, 1));
    }
}
