package io.lockstep.core.format;

import io.lockstep.core.buffer.Chunk;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;

/**
 * A load format whose bodies are compressed ({@link BodyCompression}): rows are checked, encoded and framed by the
 * plain format, and each body is compressed once when the load is built, so its length is known before it is sent and
 * every attempt (a retry, a 307 redirect) sends the same bytes (docs/protocol.md#redirects-failover-and-probes). The
 * headers say so as each target reads it: StarRocks JSON {@code compression: GZIP|BZIP2|LZ4_FRAME|ZSTD}, StarRocks CSV
 * {@code format: gzip|bzip2|lz4|zstd}, Doris {@code compress_type: gz|bz2|lz4} (facts and sources in
 * {@link BodyCompression}). Thread-safe as the plain format is.
 */
public final class CompressedLoadFormat implements LoadFormat {
    private static final String COMPRESSION = "compression";
    private static final String COMPRESS_TYPE = "compress_type";

    private final LoadFormat plain;
    private final BodyCompression compression;

    /**
     * @param plain       the format that checks, encodes and frames the rows ({@code json} or {@code csv})
     * @param compression how each body is compressed
     */
    public CompressedLoadFormat(LoadFormat plain, BodyCompression compression) {
        this.plain = Objects.requireNonNull(plain, "plain");
        this.compression = Objects.requireNonNull(compression, "compression");
        if (plain instanceof CompressedLoadFormat) {
            throw new IllegalArgumentException("a body is compressed once");
        }
    }

    /** The compression of every body. */
    public BodyCompression compression() {
        return compression;
    }

    /** The plain format's name ({@code json}, {@code csv}): the value of {@code sink.properties.format}. */
    @Override
    public String name() {
        return plain.name();
    }

    @Override
    public String bodyShape() {
        return plain.bodyShape() + ", compressed with " + compression;
    }

    @Override
    public boolean isWellFormed(byte[] row) {
        return plain.isWellFormed(row);
    }

    @Override
    public IllegalArgumentException malformedRow(byte[] row, String where) {
        return plain.malformedRow(row, where);
    }

    @Override
    public SortedSet<String> columnNames(byte[] row, String where) {
        return plain.columnNames(row, where);
    }

    @Override
    public byte[] encodeRow(String database, String table, byte[] row, Map<String, String> tableHeaders) {
        return plain.encodeRow(database, table, row, tableHeaders);
    }

    @Override
    public Map<String, String> loadHeaders(String database, String table, Map<String, String> tableHeaders) {
        return plain.loadHeaders(database, table, tableHeaders);
    }

    @Override
    public byte[] rowSeparator() {
        return plain.rowSeparator();
    }

    /**
     * The plain body compressed: the chunks are read once, here, on the I/O thread that builds the load; the bytes are
     * kept for every attempt.
     *
     * @throws IllegalStateException as {@link LoadFormat#body}, or if the compressed body would pass 2 GiB
     */
    @Override
    public LoadBody body(Iterable<Chunk> chunks) {
        LoadBody body = plain.body(chunks);
        byte[] compressed = compression.compress(body);
        long plainLength = body.contentLength();
        return new LoadBody() {
            @Override
            public long contentLength() {
                return compressed.length;
            }

            @Override
            public void writeTo(java.io.OutputStream out) throws java.io.IOException {
                out.write(compressed);
            }

            @Override
            public String toString() {
                return "body of " + compressed.length + " bytes (" + compression + " of " + plainLength + ")";
            }
        };
    }

    /** The plain format's headers; the compression is declared by {@link #starRocksHeaders}/{@link #dorisHeaders}. */
    @Override
    public Map<String, String> headers() {
        return plain.headers();
    }

    /** The plain format's StarRocks headers with {@link #starRocksCompressionHeaders()}. */
    @Override
    public Map<String, String> starRocksHeaders() {
        Map<String, String> headers = new LinkedHashMap<>(plain.starRocksHeaders());
        headers.putAll(starRocksCompressionHeaders());
        return Map.copyOf(headers);
    }

    /** The plain format's Doris headers with {@link #dorisCompressionHeaders()}. */
    @Override
    public Map<String, String> dorisHeaders() {
        Map<String, String> headers = new LinkedHashMap<>(plain.dorisHeaders());
        headers.putAll(dorisCompressionHeaders());
        return Map.copyOf(headers);
    }

    /** StarRocks: {@code format: <compressed csv>} for CSV, {@code compression: <NAME>} for JSON. */
    public Map<String, String> starRocksCompressionHeaders() {
        return plain.name().equals(CsvLoadFormat.NAME) ? Map.of("format", compression.starRocksCsvFormat())
                : Map.of(COMPRESSION, compression.starRocksName());
    }

    /**
     * Doris: {@code compress_type: <type>}.
     *
     * @throws IllegalStateException for a compression Doris does not read (ZSTD), which the options refuse first
     */
    public Map<String, String> dorisCompressionHeaders() {
        return Map.of(COMPRESS_TYPE, compression.dorisCompressType().orElseThrow(() -> new IllegalStateException(
                "Doris reads no compress_type for " + compression)));
    }

    /**
     * @throws IllegalArgumentException naming {@code where} unless the headers declare this compression exactly once
     *                                  (StarRocks {@code compression} or compressed-CSV {@code format}, or Doris
     *                                  {@code compress_type}) and the rest declares the plain format
     */
    @Override
    public void checkHeaders(String where, Map<String, String> headers) {
        Map<String, String> rest = new LinkedHashMap<>(headers);
        String format = rest.getOrDefault("format", CsvLoadFormat.NAME).trim().toLowerCase(Locale.ROOT);
        int declarations = 0;
        BodyCompression declared = null;
        try {
            if (rest.containsKey(COMPRESSION)) {
                declared = BodyCompression.fromStarRocksName(rest.remove(COMPRESSION));
                declarations++;
            }
            if (rest.containsKey(COMPRESS_TYPE)) {
                declared = BodyCompression.fromDorisName(rest.remove(COMPRESS_TYPE));
                declarations++;
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
        for (BodyCompression c : BodyCompression.values()) {
            if (c.starRocksCsvFormat().equals(format)) {
                declared = c;
                declarations++;
                rest.put("format", CsvLoadFormat.NAME);
            }
        }
        if (declarations != 1 || declared != compression) {
            throw new IllegalArgumentException(where + " must declare the body's compression " + compression
                    + " once (compression, a compressed-CSV format, or compress_type); found "
                    + (declarations == 0 ? "none" : declarations > 1 ? declarations + " declarations" : declared));
        }
        plain.checkHeaders(where, rest);
    }

    @Override
    public String toString() {
        return plain + " compressed with " + compression;
    }
}
