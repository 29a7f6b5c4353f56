package io.lockstep.app.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Configured primary-key columns per source table ({@code db.table}), used to detect a
 * primary-key-changing update when the message itself does not name the key. Immutable, serializable.
 */
final class KeyColumns implements Serializable {

    private static final long serialVersionUID = 1L;

    private final HashMap<String, ArrayList<String>> byTable = new HashMap<>();

    KeyColumns(Map<String, List<String>> byTable) {
        byTable.forEach((table, columns) -> this.byTable.put(table, new ArrayList<>(columns)));
    }

    /** @return the configured key columns of {@code db.table}, or an empty list */
    List<String> of(String dataCollection) {
        List<String> columns = byTable.get(dataCollection);
        return columns == null ? List.of() : columns;
    }

    /**
     * @return whether the value of any key column differs between the two images (a missing column
     *     counts as JSON null); {@code false} when no key columns are known
     */
    static boolean keyChanged(List<String> keyColumns, ObjectNode before, ObjectNode after) {
        for (String column : keyColumns) {
            if (!valueOf(before, column).equals(valueOf(after, column))) {
                return true;
            }
        }
        return false;
    }

    private static JsonNode valueOf(ObjectNode image, String column) {
        JsonNode value = image.get(column);
        return value == null ? NullNode.getInstance() : value;
    }
}
