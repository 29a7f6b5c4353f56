package io.lockstep.core.format;

import io.lockstep.core.buffer.Chunk;
import java.util.Map;
import java.util.SortedSet;

/**
 * How rows travel in a stream load body: the check of one row before it is buffered, the bytes that separate rows
 * inside a chunk, the assembly of one request body from chunks, and the stream load headers that declare the format
 * to the server (StarRocks docs "STREAM LOAD", data_desc: {@code format} and the format's own parameters; Doris docs
 * "Stream Load"). The buffer only holds bytes: a region's chunks join rows with {@link #rowSeparator()}, and
 * {@link #body} frames them. A new format (a compressed body) is one implementation, chosen by name in
 * {@link LoadFormats#forName}, the one place a format name becomes a {@code LoadFormat}.
 *
 * <p>Implementations are thread-safe: the task thread checks and encodes rows, I/O threads write bodies and read load
 * headers ({@link CsvLoadFormat} keeps the column list each table's first row fixed; {@link JsonLoadFormat} is
 * immutable).
 */
public interface LoadFormat {
    /** The {@code format} header value, lower case, e.g. {@code json}. */
    String name();

    /** What a load body is, for messages, e.g. "a JSON array of rows". */
    String bodyShape();

    /**
     * Task thread, once per row: true if {@code row} may be buffered as one row of this format. Cheap and
     * allocation-free; a row it refuses is reported by {@link #malformedRow}.
     */
    boolean isWellFormed(byte[] row);

    /**
     * The error for a row {@link #isWellFormed} refused.
     *
     * @param where names the row's target, e.g. "db.orders (partition 3)"
     * @return an exception naming {@code where} and the row's length, never its content
     */
    IllegalArgumentException malformedRow(byte[] row, String where);

    /**
     * The column names one row carries, lower case, for the partial-update check of a table whose loads name their
     * columns: parses the whole row, so it is asked only for such tables.
     *
     * @param where names the row's target, e.g. "db.orders (partition 3)"
     * @return the names, sorted
     * @throws IllegalArgumentException naming {@code where} (and the parser's reason, never the row's content) if the
     *                                  row cannot be read
     */
    SortedSet<String> columnNames(byte[] row, String where);

    /**
     * The bytes a chunk writes between two rows, and {@link #body} between two chunks; a fresh array, at least
     * one byte.
     */
    byte[] rowSeparator();

    /**
     * The request body holding every row of {@code chunks}, in order, written from the chunks' segments each time it
     * is sent ({@link LoadBody#writeTo}), its {@link LoadBody#contentLength()} known up front (empty chunks count for
     * nothing; {@link LoadBody#toByteArray()} gives the bytes as one array, for tests and benchmarks). The load path
     * sends this, never an assembled array (a {@link CompressedLoadFormat} body is the one exception: compressed once,
     * its bytes are kept): the chunks must stay frozen (or loading) until the load's outcome is known, and then a
     * retry or a redirect re-sends the same bytes.
     *
     * @throws IllegalStateException if the body would pass 2 GiB; its {@code writeTo} throws it if a chunk was loaded
     *                               or discarded meanwhile (its rows are gone)
     */
    LoadBody body(Iterable<Chunk> chunks);

    /**
     * The stream load headers every target reads for this format, e.g. {@code format}; read-only. A load whose
     * headers set one of them to another value would not read the bodies this format frames.
     */
    Map<String, String> headers();

    /** Headers of this format only StarRocks reads (Doris takes the same limits from its configuration); read-only. */
    Map<String, String> starRocksHeaders();

    /**
     * Headers of this format only Doris reads, where Doris names a setting differently (CSV: {@code line_delimiter}
     * for StarRocks' {@code row_delimiter}, Doris docs "Stream Load"); read-only. None by default.
     */
    default Map<String, String> dorisHeaders() {
        return Map.of();
    }

    /**
     * Task thread, once per row after {@link #isWellFormed} and any {@link #columnNames} check: the bytes buffered for
     * {@code row}, framed later by {@link #body}. JSON buffers the row as it is (the default); CSV writes the JSON
     * object as one record of the table's columns.
     *
     * @param tableHeaders the table's stream load headers (e.g. a configured {@code columns})
     * @throws IllegalArgumentException naming {@code database.table} (and the column, never a value) if the row cannot
     *                                  be written in this format
     */
    default byte[] encodeRow(String database, String table, byte[] row, Map<String, String> tableHeaders) {
        return row;
    }

    /**
     * The headers of one load into {@code database.table} from the table's configured ones: those as they are by
     * default; CSV adds the {@code columns} its records were written for. Identical for every load of the table
     * once its first row was encoded.
     */
    default Map<String, String> loadHeaders(String database, String table, Map<String, String> tableHeaders) {
        return tableHeaders;
    }

    /**
     * Checks that the stream load headers of one table still declare this format as the bodies are framed.
     *
     * @param where names the headers in the message, e.g. "load properties of db.orders"
     * @throws IllegalArgumentException naming {@code where}, the expected and the found values
     */
    void checkHeaders(String where, Map<String, String> headers);
}
