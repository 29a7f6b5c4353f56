package io.lockstep.emulator.load;

import java.util.List;

/**
 * The result of parsing one load body against one table.
 *
 * @param rows           rows that passed parsing, conversion and {@code where}; in body order
 * @param totalRows      every record read from the body (loaded + filtered + unselected)
 * @param filteredRows   records rejected for data quality (bad type, too many columns, NULL in NOT NULL, ...)
 * @param unselectedRows records removed by the {@code where} predicate
 * @param errorRows      one line per filtered record, in the form StarRocks writes to its error log:
 *                       {@code Error: <reason>. Row: <record text>}; at most the first 1000 are kept
 */
public record ParsedBatch(List<RowChange> rows, long totalRows, long filteredRows, long unselectedRows,
                          List<String> errorRows) {
    public ParsedBatch {
        rows = List.copyOf(rows);
        errorRows = List.copyOf(errorRows);
    }
}
