package io.lockstep.emulator.storage;

import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.load.RowChange;
import java.util.List;

/**
 * All rows one transaction loaded into one table, in load order (later rows win on PRIMARY KEY tables).
 *
 * @param table the target table
 * @param rows  the rows; deletes ({@link RowChange#delete()}) apply only to PRIMARY KEY tables
 */
public record TableChanges(TableSchema table, List<RowChange> rows) {
    public TableChanges {
        rows = List.copyOf(rows);
    }
}
