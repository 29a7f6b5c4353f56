package io.lockstep.app.schema;

import java.io.Serializable;
import java.util.List;

/**
 * Reads a target table's columns as they are now. Serializable, so the job's operators carry it; each subtask
 * caches what it read in {@link TargetColumns}.
 */
@FunctionalInterface
public interface ColumnReader extends Serializable {

    /**
     * @param database the target database
     * @param table the target table
     * @return the table's columns in table order
     * @throws ColumnReadException naming the table, when it cannot be read: its {@link ColumnReadException#kind()}
     *     says whether the target is out, the table missing or the access refused; any other exception counts as
     *     an outage
     */
    List<TargetColumn> columns(String database, String table) throws Exception;
}
