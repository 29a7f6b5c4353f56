package io.lockstep.app.assemble;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.route.TargetTable;
import io.lockstep.app.schema.BadValue;
import io.lockstep.app.schema.TargetColumn;
import io.lockstep.flink.row.LoadRow;
import java.util.List;
import java.util.Map;

/**
 * The assembler's value check (docs/dead-letter.md, "Bad values"): each sink row of a source event against its target
 * table's columns, before the rows are buffered. Stateless.
 */
final class ValueCheck {

    private ValueCheck() {
    }

    /**
     * @param event the source event the rows come from (its position and table name the failure)
     * @param target their target table
     * @param rows the event's sink rows
     * @param columns the target's columns by lower-case name, or {@code null} when not known
     * @return {@code rows}, when each value fits its column
     * @throws BadValueException naming the first value that does not
     */
    static List<LoadRow> checked(SourceEvent event, TargetTable target,
            List<LoadRow> rows, Map<String, TargetColumn> columns) {
        if (columns != null && BadValue.anyChecked(columns)) {
            for (LoadRow row : rows) {
                BadValue bad = BadValue.firstIn(row.getRow(), columns);
                if (bad != null) {
                    throw new BadValueException(event.describePosition(), event.dataCollection(), target, bad);
                }
            }
        }
        return rows;
    }
}
