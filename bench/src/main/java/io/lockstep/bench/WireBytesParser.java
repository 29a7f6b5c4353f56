package io.lockstep.bench;

import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.load.LoadBodyParser;
import io.lockstep.emulator.load.LoadFormat;
import io.lockstep.emulator.load.LoadFormatException;
import io.lockstep.emulator.load.LoadStreamCarry;
import io.lockstep.emulator.load.ParsedBatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The emulator's body parser as {@link CountingParser} runs it (every row decompressed, parsed and type-checked, one
 * reference kept per row), counting the bytes of every load body as the backend received it: compressed bodies are
 * counted before they are decompressed, so the count is the request bodies' bytes on the wire (HTTP headers and the
 * FE's 307 redirect, which carries no body, not included). Thread-safe: the server's threads add to an atomic counter.
 */
final class WireBytesParser implements LoadBodyParser {
    private final CountingParser parser = new CountingParser();
    private final AtomicLong bodyBytes = new AtomicLong();
    private final AtomicLong bodies = new AtomicLong();

    @Override
    public ParsedBatch parse(TableSchema table, LoadFormat format, byte[] body) throws LoadFormatException {
        count(body);
        return parser.parse(table, format, body);
    }

    @Override
    public ParsedBatch parse(TableSchema table, LoadFormat format, byte[] body, LoadStreamCarry carry)
            throws LoadFormatException {
        count(body);
        return parser.parse(table, format, body, carry);
    }

    @Override
    public ParsedBatch finish(TableSchema table, LoadFormat format, LoadStreamCarry carry)
            throws LoadFormatException {
        return parser.finish(table, format, carry);
    }

    /** Load body bytes received since the emulator started. */
    long bodyBytes() {
        return bodyBytes.get();
    }

    /** Load bodies received since the emulator started. */
    long bodies() {
        return bodies.get();
    }

    private void count(byte[] body) {
        bodyBytes.addAndGet(body.length);
        bodies.incrementAndGet();
    }
}
