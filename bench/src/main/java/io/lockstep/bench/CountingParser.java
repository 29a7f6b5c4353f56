package io.lockstep.bench;

import io.lockstep.core.progress.ProgressTable;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.catalog.DdlException;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.load.LoadBodyParser;
import io.lockstep.emulator.load.LoadFormat;
import io.lockstep.emulator.load.LoadFormatException;
import io.lockstep.emulator.load.LoadStreamCarry;
import io.lockstep.emulator.load.ParsedBatch;
import io.lockstep.emulator.load.StreamLoadBodyParser;
import java.util.Collections;

/**
 * The emulator's own body parser (every row parsed and type-checked, as the server's cost should be), whose batches
 * then keep one parsed row repeated instead of every row: the emulator's load channels hold a transaction's rows
 * until it commits, and with the {@code none} store nothing reads them but their count. Without this the server side
 * would hold every parsed row of an open transaction (hundreds of bytes each) in the benchmark's JVM, and its
 * garbage collection, not the client, would decide the figures; with it a row costs one reference until the commit.
 */
final class CountingParser implements LoadBodyParser {
    private final StreamLoadBodyParser parser = new StreamLoadBodyParser();

    /** A started emulator with the {@code none} store, this parser and {@code ddl}. */
    static StarRocksEmulator emulator(String ddl) throws DdlException {
        return StarRocksEmulator.builder().storage("none").parser(new CountingParser()).ddl(ddl).build().start();
    }

    /**
     * A started emulator with the {@code none} store and this parser that keeps the exactly-once progress table
     * ({@code lockstep_progress}, parsed row by row) queryable in H2, for the sink to read back.
     */
    static StarRocksEmulator emulatorKeepingProgress(String ddl) throws DdlException {
        return StarRocksEmulator.builder().storage("none").keepTables(ProgressTable.DEFAULT_NAME)
                .parser(new CountingParser()).ddl(ddl).build().start();
    }

    @Override
    public ParsedBatch parse(TableSchema table, LoadFormat format, byte[] body) throws LoadFormatException {
        if (table.name().equals(ProgressTable.DEFAULT_NAME)) {
            return parser.parse(table, format, body); // stored and read back: every row as it is
        }
        return slim(parser.parse(table, format, body));
    }

    @Override
    public ParsedBatch parse(TableSchema table, LoadFormat format, byte[] body, LoadStreamCarry carry)
            throws LoadFormatException {
        if (table.name().equals(ProgressTable.DEFAULT_NAME)) {
            return parser.parse(table, format, body, carry);
        }
        return slim(parser.parse(table, format, body, carry));
    }

    @Override
    public ParsedBatch finish(TableSchema table, LoadFormat format, LoadStreamCarry carry)
            throws LoadFormatException {
        if (table.name().equals(ProgressTable.DEFAULT_NAME)) {
            return parser.finish(table, format, carry);
        }
        return slim(parser.finish(table, format, carry));
    }

    private static ParsedBatch slim(ParsedBatch batch) {
        if (batch.rows().size() < 2) {
            return batch;
        }
        return new ParsedBatch(Collections.nCopies(batch.rows().size(), batch.rows().get(0)), batch.totalRows(),
                batch.filteredRows(), batch.unselectedRows(), batch.errorRows());
    }
}
