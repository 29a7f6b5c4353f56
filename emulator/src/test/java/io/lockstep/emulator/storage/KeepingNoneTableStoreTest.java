package io.lockstep.emulator.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.catalog.InMemoryCatalog;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.load.RowChange;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeepingNoneTableStoreTest {

    @Test
    void keptTablesAreStoredAndQueryableWhileTheOthersAreOnlyCounted() throws Exception {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.execute("CREATE DATABASE d; CREATE TABLE d.data (k INT) DUPLICATE KEY (k);");
        KeepingNoneTableStore store = KeepingNoneTableStore.attachedTo(catalog, Set.of("progress"));
        // a table created after the store was attached is known to both halves
        catalog.execute("CREATE TABLE d.progress (k INT NOT NULL, v INT) PRIMARY KEY (k);");
        TableSchema data = catalog.table("d", "data").orElseThrow();
        TableSchema progress = catalog.table("d", "progress").orElseThrow();
        RowChange row = new RowChange(new Object[] {7}, false);
        store.publish(1, List.of(new TableChanges(data, List.of(row, row, row)),
                new TableChanges(progress, List.of(new RowChange(new Object[] {1, 10}, false)))));
        store.publish(2, List.of(new TableChanges(progress, List.of(new RowChange(new Object[] {1, 11}, false)))));

        assertThat(store.rowCount("d", "data")).as("counted, duplicates included").isEqualTo(3);
        assertThat(store.rowCount("d", "progress")).as("stored: the upsert replaced the row").isEqualTo(1);
        assertThat(store.query("SELECT v FROM d.progress").rows()).containsExactly(List.of(11));
        assertThat(store.query("SELECT COUNT(*) FROM d.data").rows()).as("data rows are not stored")
                .containsExactly(List.of(0L));
        store.close();
    }
}
