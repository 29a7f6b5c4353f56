package io.lockstep.app.assemble;

import static io.lockstep.app.assemble.AssemblerHarness.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.BadSourceEventException;
import io.lockstep.app.event.MaxwellDecoder;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.app.testing.Samples;
import io.lockstep.flink.row.LoadRow;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MaxwellTransactionAssemblerTest {

    private final MaxwellDecoder decoder = new MaxwellDecoder();
    private AssemblerHarness harness;
    private long offset;

    private AssemblerHarness start(AssemblerOptions options) throws Exception {
        harness = new AssemblerHarness(new MaxwellTransactionAssembler(
                TableRouter.parse(null, "dw", UnknownTableMode.FAIL), options));
        return harness;
    }

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    private SourceEvent maxwell(int partition, String value) {
        return decoder.decode(new SourceRecord("maxwell", partition, offset++, null, value));
    }

    private static String insert(long xid, boolean commit, String data) {
        return "{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"insert\",\"ts\":1767225600,\"xid\":" + xid
                + (commit ? ",\"commit\":true" : "") + ",\"data\":" + data + "}";
    }

    @Test
    void sampleFileIsEmittedTransactionByTransaction() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());
        List<String> lines = Samples.lines(Samples.MAXWELL);

        List<Integer> emittedAfterLine = new ArrayList<>();
        for (String line : lines) {
            h.send(maxwell(0, line));
            emittedAfterLine.add(h.takeEmitted().size());
        }

        // nothing before a commit row; then the whole transaction at once
        assertThat(emittedAfterLine).containsExactly(0, 0, 0, 0, 0, 0, 0, 0, 9, 1, 1, 1, 1, 1, 1, 1, 0, 2, 0, 2);
        assertThat(h.keyedStateEntries()).isZero();
    }

    @Test
    void sampleRowsCarryTheirContentTargetAndEndFlags() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());
        for (String line : Samples.lines(Samples.MAXWELL)) {
            h.send(maxwell(3, line));
        }

        List<LoadRow> rows = h.takeEmitted();
        assertThat(rows).hasSize(20);
        List<Integer> ends = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).isTransactionEnd()) {
                ends.add(i);
            }
        }
        assertThat(ends).containsExactly(8, 9, 10, 11, 12, 13, 14, 15, 17, 19);
        assertThat(rows).allSatisfy(r -> {
            assertThat(r.getDatabase()).isEqualTo("dw");
            assertThat(r.getTable()).isEqualTo("product");
            assertThat(r.getSourcePartition()).isEqualTo(3);
        });
        assertThat(rows.get(18)).isEqualTo(row("dw", "product", "{\"id\":102,\"name\":\"car battery\","
                + "\"description\":\"12V car battery\",\"weight\":5.17,\"__op\":1}", 3, false));
        assertThat(rows.get(19)).isEqualTo(row("dw", "product", "{\"id\":103,\"name\":\"12-pack drill bits\","
                + "\"description\":\"12-pack of drill bits with sizes ranging from #40 to #3\",\"weight\":0.8,"
                + "\"__op\":1}", 3, true));
    }

    @Test
    void keyChangingUpdateEmitsTheOldKeyDeleteFirst() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());

        h.send(maxwell(0, "{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"update\",\"xid\":5,\"commit\":true,"
                + "\"data\":{\"order_id\":8,\"total\":1},\"old\":{\"order_id\":6},\"primary_key_columns\":[\"order_id\"]}"));

        assertThat(h.takeEmitted()).containsExactly(
                row("dw", "orders", "{\"order_id\":6,\"total\":1,\"__op\":1}", 0, false),
                row("dw", "orders", "{\"order_id\":8,\"total\":1}", 0, true));
    }

    @Test
    void rowOfAnotherXidWhileATransactionIsOpenFailsNamingBoth() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());
        h.send(maxwell(0, insert(11, false, "{\"order_id\":1}")));

        assertThatThrownBy(() -> h.send(maxwell(0, insert(12, true, "{\"order_id\":2}"))))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessage("transaction '11' on source partition 0 (started at topic 'maxwell' partition 0 offset 0) "
                        + "has no commit row: a row of xid 12 arrived at topic 'maxwell' partition 0 offset 1; are the "
                        + "rows of one transaction spread over partitions (producer_partition_by)?");
    }

    @Test
    void partitionsAreAssembledIndependently() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());

        h.send(maxwell(0, insert(21, false, "{\"order_id\":1}")), maxwell(1, insert(31, false, "{\"order_id\":2}")),
                maxwell(1, insert(31, true, "{\"order_id\":3}")));
        assertThat(h.takeEmitted()).containsExactly(
                row("dw", "orders", "{\"order_id\":2}", 1, false),
                row("dw", "orders", "{\"order_id\":3}", 1, true));

        h.send(maxwell(0, insert(21, true, "{\"order_id\":4}")));
        assertThat(h.takeEmitted()).containsExactly(
                row("dw", "orders", "{\"order_id\":1}", 0, false),
                row("dw", "orders", "{\"order_id\":4}", 0, true));
        assertThat(h.keyedStateEntries()).isZero();
    }

    @Test
    void timeBoundFailsAnUncommittedTransaction() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults().withMaxOpenMs(30_000));
        h.send(maxwell(0, insert(41, false, "{\"order_id\":1}")));

        assertThatThrownBy(() -> h.advanceTo(30_000))
                .isInstanceOf(TransactionAssemblyException.class)
                .hasMessage("transaction '41' on source partition 0 (started at topic 'maxwell' partition 0 offset 0, "
                        + "1 rows buffered, 0 emitted earlier) has been open for 30000 ms, beyond the time bound of "
                        + "30000 ms; raise the bound or allow emitting it in parts");
    }

    @Test
    void transactionBoundaryEventsAreBadInputInAMaxwellStream() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());
        SourceEvent begin = SourceEvent.at(SourceEventKind.BEGIN, new SourceRecord("maxwell", 0, 9, null, null));

        assertThatThrownBy(() -> h.send(begin))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessage("topic 'maxwell' partition 0 offset 9: a BEGIN event in a Maxwell stream (Maxwell marks "
                        + "transactions with xid and commit only)");
        harness.close();

        AssemblerHarness skipping = start(AssemblerOptions.defaults().withBadInputMode(BadInputMode.SKIP));
        skipping.send(begin, maxwell(0, insert(51, true, "{\"order_id\":1}")));
        assertThat(skipping.takeEmitted()).containsExactly(row("dw", "orders", "{\"order_id\":1}", 0, true));
    }
}
