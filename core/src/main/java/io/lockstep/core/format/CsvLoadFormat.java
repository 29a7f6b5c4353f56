package io.lockstep.core.format;

import io.lockstep.core.buffer.Chunk;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * CSV loads: a JSON object row is written as one CSV record ({@link CsvRecordEncoder}) before it is buffered, so a
 * body is the records, each ended by the row delimiter (also the last: the loads of one transaction are one stream,
 * docs/protocol.md#data-formats-and-filtered-rows), loaded with {@code format: csv} and a {@code columns} header
 * naming each field (StarRocks docs "STREAM LOAD", CSV
 * parameters and columns; Doris docs "Stream Load"). The separator and the delimiter are the stream load headers of
 * the StarRocks Flink connector's options {@code sink.properties.column_separator} and
 * {@code sink.properties.row_delimiter} (Doris: {@code sink.properties.line_delimiter}), default tab and line feed
 * ({@link CsvDelimiter}); NULL is {@code \N}.
 *
 * <p>Each table's column list is its configured {@code columns} header's source columns, or else the keys of the first
 * row written for it, in that row's order; it is fixed for the life of this instance (one engine), since every load of
 * a transaction must carry the same {@code columns} (docs/protocol.md#load-headers). A row with other keys is refused
 * in one line naming the table and the key. A table whose first row is not a JSON object takes CSV lines the job
 * wrote, as the official StarRocks connector does in its default CSV format: each is sent as it is (no {@code columns}
 * of Lockstep's own), and refused if it contains the row delimiter.
 *
 * <p>Thread-safe: the task thread fixes a table's columns at its first row ({@link #encodeRow}), I/O threads read them
 * for the headers of its loads ({@link #loadHeaders}); the lists live in a concurrent map and never change once set.
 */
public final class CsvLoadFormat implements LoadFormat {
    /** The {@code format} header value. */
    public static final String NAME = "csv";
    private static final String SEPARATOR = "column_separator";
    private static final String ROW_DELIMITER = "row_delimiter";
    private static final String LINE_DELIMITER = "line_delimiter";

    private final CsvDelimiter separator;
    private final CsvDelimiter delimiter;
    private final CsvRecordEncoder encoder;
    private final DelimitedBody body;
    /** By database, then table: the fixed column lists. Written by the task thread, read by any. */
    private final Map<String, Map<String, CsvColumns>> columnsByTable = new ConcurrentHashMap<>();

    private CsvLoadFormat(CsvDelimiter separator, CsvDelimiter delimiter) {
        this.separator = separator;
        this.delimiter = delimiter;
        this.encoder = new CsvRecordEncoder(separator, delimiter);
        this.body = new DelimitedBody(new byte[0], delimiter.bytes(), delimiter.bytes());
    }

    /**
     * A CSV format with the separator and delimiter of {@code headers} ({@code column_separator}; {@code row_delimiter}
     * or Doris' {@code line_delimiter}, which must then agree), the servers' defaults where absent.
     *
     * @throws IllegalArgumentException naming the header whose value cannot be read, or the two delimiter headers
     *                                  when they differ
     */
    public static CsvLoadFormat fromHeaders(Map<String, String> headers) {
        CsvDelimiter separator = CsvDelimiter.parse(SEPARATOR, headers.get(SEPARATOR), CsvDelimiter.TAB);
        CsvDelimiter rows = CsvDelimiter.parse(ROW_DELIMITER, headers.get(ROW_DELIMITER), CsvDelimiter.NEWLINE);
        CsvDelimiter lines = CsvDelimiter.parse(LINE_DELIMITER, headers.get(LINE_DELIMITER), CsvDelimiter.NEWLINE);
        if (headers.get(ROW_DELIMITER) != null && headers.get(LINE_DELIMITER) != null && !rows.sameBytes(lines)) {
            throw new IllegalArgumentException("row_delimiter = '" + rows + "' and line_delimiter = '" + lines
                    + "' differ: they name the same CSV row delimiter (StarRocks' and Doris' name); set one");
        }
        CsvDelimiter delimiter = headers.get(ROW_DELIMITER) != null ? rows : lines;
        if (separator.sameBytes(delimiter)) {
            throw new IllegalArgumentException("column_separator and the row delimiter are both '" + separator
                    + "': a record could not be told from a field");
        }
        return new CsvLoadFormat(separator, delimiter);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** "CSV records, each ended by the row delimiter". */
    @Override
    public String bodyShape() {
        return "CSV records, each ended by the row delimiter";
    }

    /** True for any row with a byte: a JSON object, or a CSV line the job wrote ({@link #encodeRow} tells). */
    @Override
    public boolean isWellFormed(byte[] row) {
        return row.length > 0;
    }

    @Override
    public IllegalArgumentException malformedRow(byte[] row, String where) {
        return new IllegalArgumentException("row for " + where + " is empty; a CSV load needs a JSON object or a CSV "
                + "line per row");
    }

    /** The JSON row's keys, lower case (asked before the row is encoded). */
    @Override
    public SortedSet<String> columnNames(byte[] row, String where) {
        return JsonLoadFormat.INSTANCE.columnNames(row, where);
    }

    /**
     * The CSV record of the JSON object {@code row}, its table's columns fixed first if this is its first row.
     *
     * @throws IllegalArgumentException naming {@code database.table} and the column, as {@link CsvRecordEncoder}
     */
    @Override
    public byte[] encodeRow(String database, String table, byte[] row, Map<String, String> tableHeaders) {
        Map<String, CsvColumns> tables = columnsByTable.get(database);
        CsvColumns columns = tables == null ? null : tables.get(table);
        if (columns == null) {
            columns = fixColumns(database, table, row, tableHeaders);
        }
        if (columns.isGivenLines()) {
            encoder.checkGivenLine(row, database + "." + table);
            return row;
        }
        if (!JsonLoadFormat.INSTANCE.isWellFormed(row)) {
            throw new IllegalArgumentException("row for " + database + "." + table + " (" + row.length + " bytes) is "
                    + "not a JSON object, but the table's first row was: a table's rows are all JSON objects (written "
                    + "as CSV records by the sink) or all CSV lines (sent as they are)");
        }
        return encoder.encode(row, columns, database + "." + table);
    }

    /**
     * Fixes how the table's rows are written, from its first row: a JSON object ({...}) makes the table's rows JSON
     * objects written as records of its columns; anything else makes them CSV lines the job wrote, sent as they are
     * (as the official StarRocks connector sends {@code getRow()} in its default CSV format).
     */
    private CsvColumns fixColumns(String database, String table, byte[] row, Map<String, String> tableHeaders) {
        String where = database + "." + table;
        String configured = tableHeaders.get("columns");
        CsvColumns columns;
        if (!JsonLoadFormat.INSTANCE.isWellFormed(row)) {
            columns = CsvColumns.GIVEN_LINES;
        } else if (configured != null && !configured.isBlank()) {
            columns = CsvColumns.configured(configured, where);
        } else {
            columns = CsvColumns.ofFirstRow(CsvRecordEncoder.keys(row, where), where);
        }
        return columnsByTable.computeIfAbsent(database, d -> new ConcurrentHashMap<>())
                .computeIfAbsent(table, t -> columns);
    }

    /**
     * The table's headers with {@code columns} naming the fields of its records, once its first row fixed them (a
     * configured {@code columns} is kept as given).
     */
    @Override
    public Map<String, String> loadHeaders(String database, String table, Map<String, String> tableHeaders) {
        Map<String, CsvColumns> tables = columnsByTable.get(database);
        CsvColumns columns = tables == null ? null : tables.get(table);
        if (columns == null || columns.isConfigured()) {
            return tableHeaders;
        }
        Map<String, String> headers = new LinkedHashMap<>(tableHeaders);
        headers.put("columns", columns.header());
        return Map.copyOf(headers);
    }

    /** The row delimiter: a chunk ends each record with it. */
    @Override
    public byte[] rowSeparator() {
        return delimiter.copy();
    }

    /** The records of {@code chunks}, in order, each ended by the row delimiter. */
    @Override
    public LoadBody body(Iterable<Chunk> chunks) {
        return body.body(chunks);
    }

    /** {@code format: csv}, and {@code column_separator} when it is not the default. */
    @Override
    public Map<String, String> headers() {
        return separator.header() == null ? Map.of("format", NAME)
                : Map.of("format", NAME, SEPARATOR, separator.header());
    }

    /** {@code row_delimiter} when it is not the default. */
    @Override
    public Map<String, String> starRocksHeaders() {
        return delimiter.header() == null ? Map.of() : Map.of(ROW_DELIMITER, delimiter.header());
    }

    /** {@code line_delimiter} (Doris' name) when it is not the default. */
    @Override
    public Map<String, String> dorisHeaders() {
        return delimiter.header() == null ? Map.of() : Map.of(LINE_DELIMITER, delimiter.header());
    }

    /**
     * @throws IllegalArgumentException unless the headers say {@code format=csv} (a missing {@code format} is the
     *                                  servers' default, csv), their separator and delimiter are this format's, and
     *                                  they set no {@code enclose} or {@code escape} (the transaction load ignores
     *                                  both, docs/protocol.md#load-headers, so a value could not be quoted)
     */
    @Override
    public void checkHeaders(String where, Map<String, String> headers) {
        String format = headers.getOrDefault("format", NAME).trim().toLowerCase(Locale.ROOT);
        if (!format.equals(NAME)) {
            throw new IllegalArgumentException(where + " must have format=csv: the engine sends each load as "
                    + bodyShape() + " (found format=" + format + ")");
        }
        for (String quoting : new String[] {"enclose", "escape"}) {
            if (headers.get(quoting) != null) {
                throw new IllegalArgumentException(where + " sets " + quoting + ": StarRocks' transaction stream load "
                        + "reads no enclose/escape, so Lockstep never quotes a value and refuses a row whose value "
                        + "contains the separator or delimiter instead; remove it");
            }
        }
        CsvLoadFormat given;
        try {
            given = fromHeaders(headers);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
        if (!given.separator.sameBytes(separator) || !given.delimiter.sameBytes(delimiter)) {
            throw new IllegalArgumentException(where + " sets column_separator '" + given.separator + "' and row "
                    + "delimiter '" + given.delimiter + "', but the sink writes records with '" + separator + "' and '"
                    + delimiter + "': every table is loaded with the sink's own separators");
        }
    }

    @Override
    public String toString() {
        return NAME + "(column_separator=" + separator + ", row_delimiter=" + delimiter + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CsvLoadFormat other && separator.equals(other.separator)
                && delimiter.equals(other.delimiter);
    }

    @Override
    public int hashCode() {
        return Objects.hash(separator, delimiter);
    }
}
