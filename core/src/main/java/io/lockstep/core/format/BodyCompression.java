package io.lockstep.core.format;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;

/**
 * How a load body is compressed, and how each server names it (facts from the public docs):
 * <ul>
 *   <li>StarRocks, JSON: the {@code compression} header, values {@code GZIP}, {@code BZIP2}, {@code LZ4_FRAME},
 *       {@code ZSTD}, since 3.2.7 (StarRocks docs "STREAM LOAD", data_desc: compression / Content-Encoding);</li>
 *   <li>StarRocks, CSV: the {@code format} header names the compressed CSV: {@code gzip}, {@code bzip2}, {@code lz4}
 *       (LZ4 frame), {@code zstd} (same page, data_desc: format);</li>
 *   <li>Doris: the {@code compress_type} header, {@code gz}, {@code bz2}, {@code lz4} (LZ4 frame); ZSTD is not among
 *       its values (Doris docs "Stream Load", compress_type). Compressed JSON needs a Doris that reads
 *       {@code compress_type} for JSON (apache/doris pull request 48990, branch-3.0); older ones read it for CSV
 *       only.</li>
 * </ul>
 * The official StarRocks Flink connector compresses with LZ4_FRAME only ({@code sink.properties.compression=lz4_frame},
 * starrocks-stream-load-sdk {@code compress/CompressionCodec.java}). Codecs: the JDK's gzip, Apache Commons Compress'
 * bzip2, lz4-java's LZ4 frame format ({@code LZ4FrameOutputStream}), zstd-jni. Immutable.
 */
public enum BodyCompression {
    GZIP("gzip", "gz"),
    BZIP2("bzip2", "bz2"),
    LZ4_FRAME("lz4", "lz4"),
    ZSTD("zstd", null);

    private final String starRocksCsvFormat;
    private final String dorisCompressType;

    BodyCompression(String starRocksCsvFormat, String dorisCompressType) {
        this.starRocksCsvFormat = starRocksCsvFormat;
        this.dorisCompressType = dorisCompressType;
    }

    /** The StarRocks {@code compression} header value, e.g. {@code LZ4_FRAME}. */
    public String starRocksName() {
        return name();
    }

    /** The StarRocks {@code format} value of compressed CSV, e.g. {@code lz4}. */
    public String starRocksCsvFormat() {
        return starRocksCsvFormat;
    }

    /** The Doris {@code compress_type} value, e.g. {@code gz}; empty for ZSTD, which Doris does not list. */
    public Optional<String> dorisCompressType() {
        return Optional.ofNullable(dorisCompressType);
    }

    /**
     * @param value a StarRocks {@code compression} header value, case-insensitive, blanks ignored
     * @throws IllegalArgumentException naming the value and the accepted ones
     */
    public static BodyCompression fromStarRocksName(String value) {
        String wanted = value.trim().toUpperCase(Locale.ROOT);
        for (BodyCompression c : values()) {
            if (c.name().equals(wanted)) {
                return c;
            }
        }
        throw new IllegalArgumentException("compression = '" + value + "' is not one Lockstep implements; expected one"
                + " of " + Arrays.stream(values()).map(c -> "'" + c.name().toLowerCase(Locale.ROOT) + "'")
                .collect(Collectors.joining(", ")));
    }

    /**
     * @param value a Doris {@code compress_type} header value, case-insensitive, blanks ignored
     * @throws IllegalArgumentException naming the value and the accepted ones (Doris' other types, e.g. lzo, lzop,
     *                                  deflate, are not implemented)
     */
    public static BodyCompression fromDorisName(String value) {
        String wanted = value.trim().toLowerCase(Locale.ROOT);
        for (BodyCompression c : values()) {
            if (wanted.equals(c.dorisCompressType)) {
                return c;
            }
        }
        throw new IllegalArgumentException("compress_type = '" + value + "' is not one Lockstep implements; expected "
                + "one of 'gz', 'bz2', 'lz4'");
    }

    /**
     * The compressed bytes of {@code body}, written once: the result is what every attempt of the load sends.
     *
     * @throws IllegalStateException if the compressed body would pass the largest array (2 GiB), or from the body
     */
    public byte[] compress(LoadBody body) {
        Bounded out = new Bounded((int) Math.min(Integer.MAX_VALUE - 8, Math.max(64, body.contentLength() / 3)));
        try (OutputStream compressor = open(out)) {
            body.writeTo(compressor);
        } catch (IOException e) {
            throw new UncheckedIOException("compressing a load body with " + this + " failed", e);
        }
        return out.toByteArray();
    }

    private OutputStream open(OutputStream out) throws IOException {
        return switch (this) {
            case GZIP -> new GZIPOutputStream(out, 64 * 1024);
            case BZIP2 -> new BZip2CompressorOutputStream(out);
            case LZ4_FRAME -> new LZ4FrameOutputStream(out, LZ4FrameOutputStream.BLOCKSIZE.SIZE_1MB);
            case ZSTD -> new ZstdOutputStream(out);
        };
    }

    /** An in-memory stream that refuses to pass the largest array. */
    private static final class Bounded extends ByteArrayOutputStream {
        Bounded(int initial) {
            super(initial);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            if ((long) count + len > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("a compressed body would pass 2 GiB");
            }
            super.write(b, off, len);
        }

        @Override
        public synchronized void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }
    }
}
