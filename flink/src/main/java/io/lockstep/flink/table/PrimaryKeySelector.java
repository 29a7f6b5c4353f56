package io.lockstep.flink.table;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The primary key of a table sink's row as one string (the key columns' values joined by U+0000), so that every
 * change of one key reaches the same sink subtask, in order, whatever the sink's parallelism. Serializable; any
 * thread.
 */
final class PrimaryKeySelector implements KeySelector<RowData, String> {
    private static final long serialVersionUID = 1L;

    private final List<RowData.FieldGetter> getters = new ArrayList<>();

    /** @param keyIndexes positions of the key columns in {@code rowType} */
    PrimaryKeySelector(RowType rowType, int[] keyIndexes) {
        for (int index : keyIndexes) {
            getters.add(RowData.createFieldGetter(rowType.getTypeAt(index), index));
        }
    }

    @Override
    public String getKey(RowData row) {
        StringBuilder key = new StringBuilder();
        for (RowData.FieldGetter getter : getters) {
            key.append(getter.getFieldOrNull(row)).append('\u0000');
        }
        return key.toString();
    }
}
