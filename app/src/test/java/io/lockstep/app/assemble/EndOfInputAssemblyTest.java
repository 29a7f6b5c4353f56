package io.lockstep.app.assemble;

import static io.lockstep.app.assemble.AssemblerHarness.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.app.testing.DebeziumMessages;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A source transaction still open when a bounded input ends (the final watermark): a file's fails, Kafka's waits. */
class EndOfInputAssemblyTest {

    private static final String ORDER_7 = "{\"order_id\":7,\"customer_id\":42,\"total\":\"30.00\"}";
    private static final String ORDER_8 = "{\"order_id\":8,\"customer_id\":42,\"total\":\"5.00\"}";
    private static final String OPEN_TX_2 = "transaction 'tx-2' on source partition 0 (started at topic 'oltp.all' "
            + "partition 0 offset 3, 1 events received) has no END at the end of the input";

    private final DebeziumMessages p0 = new DebeziumMessages(0);
    private AssemblerHarness harness;

    private AssemblerHarness start(AssemblerOptions options, OperatorSubtaskState restored) throws Exception {
        harness = new AssemblerHarness(new DebeziumTransactionAssembler(
                TableRouter.parse(null, "dw", UnknownTableMode.FAIL), options), restored, 0);
        return harness;
    }

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    /** tx-1 whole, then tx-2 without its END. */
    private void sendOneWholeAndOneOpen(AssemblerHarness h) throws Exception {
        h.send(p0.begin("tx-1"), p0.insert("orders", ORDER_7, "tx-1"), p0.end("tx-1", 1, Map.of("shop.orders", 1L)),
                p0.begin("tx-2"), p0.insert("orders", ORDER_8, "tx-2"));
        assertThat(h.takeEmitted()).containsExactly(row("dw", "orders", ORDER_7, 0, true));
    }

    @Test
    void fileInputEndingInsideATransactionStopsNamingIt() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults(), null);
        sendOneWholeAndOneOpen(h);

        assertThatThrownBy(h::endInput)
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessage(OPEN_TX_2 + "; it can never load: complete or remove it and run again");
        assertThat(h.takeEmitted()).isEmpty();
    }

    @Test
    void kafkaBoundedInputEndingInsideATransactionKeepsItForTheNextRun() throws Exception {
        AssemblerOptions kafka = AssemblerOptions.defaults().withInputResumes(true);
        AssemblerHarness h = start(kafka, null);
        sendOneWholeAndOneOpen(h);

        h.endInput();
        assertThat(h.takeEmitted()).isEmpty();
        assertThat(h.keyedStateEntries()).isEqualTo(2); // the open transaction and its buffered row
        OperatorSubtaskState checkpoint = h.checkpoint(1);
        h.close();

        AssemblerHarness next = start(kafka, checkpoint);
        next.send(p0.end("tx-2", 1, Map.of("shop.orders", 1L)));
        assertThat(next.takeEmitted()).containsExactly(row("dw", "orders", ORDER_8, 0, true));
    }

    @Test
    void transactionRestoredOpenFailsAtTheEndOfAFileEvenWithoutFurtherEvents() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults(), null);
        sendOneWholeAndOneOpen(h);
        OperatorSubtaskState checkpoint = h.checkpoint(1);
        h.close();

        AssemblerHarness next = start(AssemblerOptions.defaults(), checkpoint);
        assertThatThrownBy(next::endInput)
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessageStartingWith(OPEN_TX_2 + ";");
    }

    @Test
    void inputEndingBetweenTransactionsEndsQuietly() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults(), null);
        h.send(p0.begin("tx-1"), p0.insert("orders", ORDER_7, "tx-1"), p0.end("tx-1", 1, Map.of("shop.orders", 1L)));
        assertThat(h.takeEmitted()).containsExactly(row("dw", "orders", ORDER_7, 0, true));

        h.endInput();
        assertThat(h.takeEmitted()).isEmpty();
        assertThat(h.keyedStateEntries()).isZero();
    }
}
