package io.lockstep.emulator.load;

import io.lockstep.emulator.catalog.TableSchema;
import java.util.Objects;
import javax.annotation.concurrent.ThreadSafe;

/**
 * The emulator's {@link LoadBodyParser}: plans the load against the table ({@code columns}, {@code __op}, defaults),
 * then reads the body as CSV or JSON, converting each value to its column's type and filtering records with
 * data-quality problems as StarRocks does (docs/protocol.md#data-formats-and-filtered-rows; docs "STREAM LOAD", "Strict
 * mode", "Load to Primary Key tables").
 *
 * <p>Filter reasons: wrong CSV field count; a value that cannot be converted or does not fit its type (strict
 * mode: the row is filtered; non-strict: the value becomes NULL); NULL in a NOT NULL column (including a missing
 * key); an invalid {@code __op}; malformed JSON or a JSON shape that does not match {@code strip_outer_array}.
 * Stateless and thread-safe.
 */
@ThreadSafe
public final class StreamLoadBodyParser implements LoadBodyParser {

    /**
     * {@inheritDoc}
     *
     * @param format a format made by {@link LoadFormat#fromHeaders}
     * @throws LoadFormatException ANALYSIS_ERROR when the {@code columns} header does not fit the table (unknown
     *                             column, NOT NULL column without a value) or {@code jsonpaths} does not match the
     *                             source columns
     */
    @Override
    public ParsedBatch parse(TableSchema table, LoadFormat format, byte[] body) throws LoadFormatException {
        Objects.requireNonNull(body, "body");
        return parsePlain(table, format, streamFormat(format).decompress(body));
    }

    /** Parses a body already decompressed. */
    private ParsedBatch parsePlain(TableSchema table, LoadFormat format, byte[] body) throws LoadFormatException {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(body, "body");
        StreamLoadFormat streamFormat = streamFormat(format);
        BatchCollector out = new BatchCollector();
        if (streamFormat.isJson()) {
            boolean implicitOp = streamFormat.jsonPaths() == null;
            LoadPlan plan = LoadPlan.create(table, streamFormat, implicitOp);
            JsonBodyReader.read(body, streamFormat, plan, out);
        } else {
            LoadPlan plan = LoadPlan.create(table, streamFormat, false);
            CsvBodyReader.read(body, streamFormat, plan, out);
        }
        return out.toBatch();
    }

    /**
     * Parses one load of a transaction whose loads form one stream: for CSV, the bytes after the last row
     * delimiter are not read but kept in {@code carry} and put in front of the next load's body, as the BE reads
     * the concatenated bodies (see {@link LoadStreamCarry}). JSON bodies are parsed whole and leave no carry.
     *
     * @param carry the transaction-table's carry; updated
     * @throws LoadFormatException as {@link #parse(TableSchema, LoadFormat, byte[])}
     */
    public ParsedBatch parse(TableSchema table, LoadFormat format, byte[] body, LoadStreamCarry carry)
            throws LoadFormatException {
        Objects.requireNonNull(carry, "carry");
        StreamLoadFormat streamFormat = streamFormat(format);
        byte[] plain = streamFormat.decompress(Objects.requireNonNull(body, "body"));
        if (streamFormat.isJson()) {
            return parsePlain(table, format, plain);
        }
        byte[] data = carry.takeJoinedWith(plain);
        byte[] delimiter = streamFormat.rowDelimiter().bytes();
        int end = CsvBodyReader.lastIndexOf(data, delimiter);
        int complete = end < 0 ? 0 : end + delimiter.length;
        carry.keep(data, complete);
        byte[] records = complete == data.length ? data : java.util.Arrays.copyOf(data, complete);
        return parsePlain(table, format, records);
    }

    /**
     * Ends a transaction's stream (prepare or commit): reads the carried unterminated record, if any, as the BE
     * does at the end of its input.
     *
     * @return the last record's outcome; an empty batch when nothing was carried
     * @throws LoadFormatException as {@link #parse(TableSchema, LoadFormat, byte[])}
     */
    public ParsedBatch finish(TableSchema table, LoadFormat format, LoadStreamCarry carry)
            throws LoadFormatException {
        return parsePlain(table, format, carry.takeAll());
    }

    private static StreamLoadFormat streamFormat(LoadFormat format) {
        if (!(format instanceof StreamLoadFormat streamFormat)) {
            throw new IllegalArgumentException("format must come from LoadFormat.fromHeaders, got " + format);
        }
        return streamFormat;
    }
}
