package io.lockstep.app.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.assemble.InputStop;
import io.lockstep.app.event.BadSourceEventException;
import io.lockstep.flink.row.LoadRow;
import org.junit.jupiter.api.Test;

/** CDC deletes marked {@code "__op": 1} become Doris' {@code __DORIS_DELETE_SIGN__}; nothing else changes. */
class DorisDeleteSignTest {

    @Test
    void aDeleteCarriesDeleteSignOneAndNoOpColumn() {
        assertThat(DorisDeleteSign.toDoris("{\"order_id\":7,\"line_no\":2,\"__op\":1}", "shop.order_items"))
                .isEqualTo("{\"order_id\":7,\"line_no\":2,\"__DORIS_DELETE_SIGN__\":1}");
    }

    @Test
    void anUpsertCarriesDeleteSignZeroWithOrWithoutAnOpColumn() {
        assertThat(DorisDeleteSign.toDoris("{\"order_id\":7,\"status\":\"PAID\"}", "shop.orders"))
                .isEqualTo("{\"order_id\":7,\"status\":\"PAID\",\"__DORIS_DELETE_SIGN__\":0}");
        assertThat(DorisDeleteSign.toDoris("{\"order_id\":7,\"__op\":0}", "shop.orders"))
                .isEqualTo("{\"order_id\":7,\"__DORIS_DELETE_SIGN__\":0}");
    }

    @Test
    void valuesKeepTheirExactTextAndOrder() {
        String row = "{\"payment_id\":1,\"amount\":10.50,\"big\":12345678901234567890.000,\"paid_at\":"
                + "\"2026-11-30 08:00:00\",\"method\":null}";
        assertThat(DorisDeleteSign.toDoris(row, "shop.payments")).isEqualTo(
                row.substring(0, row.length() - 1) + ",\"__DORIS_DELETE_SIGN__\":0}");
    }

    @Test
    void theMappedRowKeepsItsTablePartitionAndTransactionEnd() {
        LoadRow row = new LoadRow("k", "shop", "orders",
                "{\"order_id\":3,\"__op\":1}");
        row.setSourcePartition(1);
        row.setTransactionEnd(true);

        LoadRow mapped = (LoadRow) new DorisDeleteSign().map(row);

        assertThat(mapped.getUniqueKey()).isEqualTo("k");
        assertThat(mapped.getDatabase()).isEqualTo("shop");
        assertThat(mapped.getTable()).isEqualTo("orders");
        assertThat(mapped.getSourcePartition()).isEqualTo(1);
        assertThat(mapped.isTransactionEnd()).isTrue();
        assertThat(mapped.getRow()).isEqualTo("{\"order_id\":3,\"__DORIS_DELETE_SIGN__\":1}");
    }

    @Test
    void anUnknownOperationOrANonObjectRowIsRefusedNamingTheTableNotTheContent() {
        assertThatThrownBy(() -> DorisDeleteSign.toDoris("{\"secret\":\"s3\",\"__op\":2}", "shop.customers"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shop.customers").hasMessageContaining("__op = 2")
                .hasMessageNotContaining("s3");
        assertThatThrownBy(() -> DorisDeleteSign.toDoris("[1,2]", "shop.orders"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shop.orders");
        assertThatThrownBy(() -> DorisDeleteSign.toDoris("{\"name\":\"x", "shop.orders"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not valid JSON")
                .hasMessageNotContaining("\"x");
    }

    @Test
    void aControlMarkIsNotARowAndPassesUnchanged() {
        InputStop stop = new InputStop(new BadSourceEventException("bad event at topic t partition 2 offset 7"), 2);

        assertThat(new DorisDeleteSign().map(stop)).isSameAs(stop);
    }

    /** A rebuilt unit without rows reaches the sink as an end-only row: nothing to convert, passed unchanged. */
    @Test
    void anEndOnlyRowPassesUnchanged() {
        LoadRow end = new LoadRow();
        end.setSourcePartition(0);
        end.setTransactionEnd(true);
        end.setCoveredPositions(java.util.Map.of("pg.public.orders/0", 4L));
        assertThat(new DorisDeleteSign().map(end)).isSameAs(end);
    }
}
