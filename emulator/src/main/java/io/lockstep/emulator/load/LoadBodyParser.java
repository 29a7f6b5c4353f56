package io.lockstep.emulator.load;

import io.lockstep.emulator.catalog.TableSchema;

/**
 * Parses and type-converts one load body for one table, the way a StarRocks BE scanner does (reference §5):
 * CSV (separators, {@code \N} = NULL, every record ends with the row delimiter), JSON (simple mode,
 * {@code strip_outer_array}, {@code jsonpaths}, {@code json_root}), the {@code columns} mapping and {@code __op}.
 * Stateless and thread-safe.
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
}
