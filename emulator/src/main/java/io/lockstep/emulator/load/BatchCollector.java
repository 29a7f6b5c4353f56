package io.lockstep.emulator.load;

import java.util.ArrayList;
import java.util.List;

/**
 * Accumulates the outcome of parsing one body: loaded rows, counters and the error-log lines of filtered records
 * ({@code Error: <reason>. Row: <record>}, the form of a StarRocks error log; at most {@link #MAX_ERROR_ROWS}
 * kept). Confined to the thread that parses the body.
 */
final class BatchCollector {
    /** Error-log lines kept per body. */
    static final int MAX_ERROR_ROWS = 1000;
    /** Record text longer than this is cut in error lines (characters). */
    static final int MAX_RECORD_CHARS = 4096;

    private final List<RowChange> rows = new ArrayList<>();
    private final List<String> errorRows = new ArrayList<>();
    private long totalRows;
    private long filteredRows;
    private long unselectedRows;

    /** A row that passed; null means the {@code where} predicate unselected it. */
    void loaded(RowChange row) {
        totalRows++;
        if (row == null) {
            unselectedRows++;
        } else {
            rows.add(row);
        }
    }

    void filtered(String reason, String record) {
        totalRows++;
        filteredRows++;
        if (errorRows.size() < MAX_ERROR_ROWS) {
            String shown = record.length() > MAX_RECORD_CHARS ? record.substring(0, MAX_RECORD_CHARS) + "..." : record;
            errorRows.add("Error: " + reason + ". Row: " + shown);
        }
    }

    ParsedBatch toBatch() {
        return new ParsedBatch(rows, totalRows, filteredRows, unselectedRows, errorRows);
    }
}
