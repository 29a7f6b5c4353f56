package io.lockstep.emulator.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.emulator.catalog.InMemoryCatalog;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.load.RowChange;
import java.util.List;
import org.junit.jupiter.api.Test;

class NoneTableStoreTest {

    @Test
    void countsPublishedRowsAndCannotBeQueried() throws Exception {
        InMemoryCatalog catalog = new InMemoryCatalog();
        NoneTableStore store = new NoneTableStore();
        catalog.addListener(store);
        catalog.execute("CREATE DATABASE d; CREATE TABLE d.t (k INT NOT NULL) PRIMARY KEY (k);"
                + " CREATE TABLE d.u (k INT) DUPLICATE KEY (k);");
        TableSchema t = catalog.table("d", "t").orElseThrow();
        TableSchema u = catalog.table("d", "u").orElseThrow();
        assertThat(store.rowCount("d", "t")).isZero();
        RowChange row = new RowChange(new Object[] {1}, false);
        store.publish(1, List.of(new TableChanges(t, List.of(row, row, new RowChange(new Object[] {1}, true))),
                new TableChanges(u, List.of(row))));
        store.publish(2, List.of(new TableChanges(u, List.of(row, row))));
        assertThat(store.rowCount("d", "t")).isEqualTo(3);
        assertThat(store.rowCount("d", "u")).isEqualTo(3);
        assertThat(store.rowCount("d", "unknown")).isZero();
        assertThatThrownBy(() -> store.query("SELECT 1")).isInstanceOf(StoreException.class)
                .hasMessage("the 'none' store keeps no data and cannot be queried; run the emulator with the H2 store"
                        + " to query loaded rows");
        store.close();
    }
}
