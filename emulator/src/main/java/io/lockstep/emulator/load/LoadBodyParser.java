package io.lockstep.emulator.load;

import io.lockstep.emulator.catalog.TableSchema;
import java.util.List;

/**
 * Parses and type-converts one load body for one table, the way a StarRocks BE scanner does
 * (docs/protocol.md#data-formats-and-filtered-rows): CSV (separators, {@code \N} = NULL, every record ends with the row
 * delimiter), JSON (simple mode, {@code strip_outer_array}, {@code jsonpaths}, {@code json_root}), the {@code columns}
 * mapping and {@code __op}. Stateless and thread-safe.
 */
public interface LoadBodyParser {

    /**
     * @param table  target table
     * @param format parsed load headers
     * @param body   the whole body of one load request
     * @return rows and counters; rows with data-quality problems are counted as filtered, not thrown
     * @throws LoadFormatException when the request as a whole cannot be planned or read
     */
    ParsedBatch parse(TableSchema table, LoadFormat format, byte[] body) throws LoadFormatException;

    /**
     * Parses one load of a transaction whose loads of one table form one stream
     * (docs/protocol.md#data-formats-and-filtered-rows, StarRocks docs "Stream Load transaction interface", Limits): a
     * CSV record not yet ended by the row delimiter waits in {@code carry} for the next load. The default ignores the
     * carry (every body read on its own).
     *
     * @param carry the transaction-table's carry, owned by its load channel; updated
     * @throws LoadFormatException as {@link #parse(TableSchema, LoadFormat, byte[])}
     */
    default ParsedBatch parse(TableSchema table, LoadFormat format, byte[] body, LoadStreamCarry carry)
            throws LoadFormatException {
        return parse(table, format, body);
    }

    /**
     * Ends a transaction's stream at prepare/commit: reads what {@code carry} still holds as the last record. The
     * default has nothing to read (its {@link #parse(TableSchema, LoadFormat, byte[], LoadStreamCarry)} never
     * fills the carry).
     *
     * @return the last record's outcome; an empty batch when nothing was carried
     * @throws LoadFormatException as {@link #parse(TableSchema, LoadFormat, byte[])}
     */
    default ParsedBatch finish(TableSchema table, LoadFormat format, LoadStreamCarry carry)
            throws LoadFormatException {
        return new ParsedBatch(List.of(), 0, 0, 0, List.of());
    }
}
