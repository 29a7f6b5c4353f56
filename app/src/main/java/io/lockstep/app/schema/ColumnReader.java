package io.lockstep.app.schema;

import java.io.Serializable;
import java.util.Set;

/**
 * Reads a target table's columns as they are now. Serializable, so the job's operators carry it; each subtask
 * caches what it read in {@link TargetColumns}.
 */
@FunctionalInterface
public interface ColumnReader extends Serializable {

    /**
     * @param database the target database
     * @param table the target table
     * @return the table's column names, lower case
     * @throws Exception when the table cannot be read (missing, no privilege, the server unreachable); the message
     *     names the table
     */
    Set<String> columns(String database, String table) throws Exception;
}
