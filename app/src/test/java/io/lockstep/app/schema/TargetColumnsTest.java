package io.lockstep.app.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.route.TargetTable;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** What {@link TargetColumns} keeps: columns until forgotten, a missing table for a while, never a failure. */
class TargetColumnsTest {

    private static final TargetTable ORDERS = new TargetTable("dw", "orders");

    @Test
    void aMissingTableIsAskedAgainAfterTheRecheckTimeAndFoundOnceCreated() {
        AtomicLong nowMs = new AtomicLong(1_000);
        AtomicInteger reads = new AtomicInteger();
        TargetColumns columns = new TargetColumns((database, table) -> {
            if (reads.incrementAndGet() == 1) {
                throw new ColumnReadException(ColumnReadException.Kind.MISSING_TABLE, "missing", null);
            }
            return List.of(new TargetColumn("id", "bigint(20)", false));
        }, nowMs::get);

        assertThat(columns.of(ORDERS)).isNull();
        nowMs.addAndGet(TargetColumns.MISSING_RECHECK_MS - 1);
        assertThat(columns.of(ORDERS)).isNull();
        assertThat(reads).hasValue(1);
        nowMs.incrementAndGet();
        assertThat(columns.of(ORDERS)).containsOnlyKeys("id");
        assertThat(reads).hasValue(2);
    }

    @Test
    void anOutageIsNeverRemembered() {
        AtomicInteger reads = new AtomicInteger();
        TargetColumns columns = new TargetColumns((database, table) -> {
            if (reads.incrementAndGet() == 1) {
                throw new IOException("connection refused");
            }
            return List.of(TargetColumn.named("id"));
        });

        assertThatThrownBy(() -> columns.of(ORDERS))
                .isInstanceOf(TargetColumnsUnavailableException.class).hasMessageContaining("dw.orders")
                .hasMessageContaining("connection refused");
        assertThat(columns.of(ORDERS)).containsOnlyKeys("id");
    }
}
