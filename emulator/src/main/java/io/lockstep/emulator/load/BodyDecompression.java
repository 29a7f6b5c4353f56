package io.lockstep.emulator.load;

import com.github.luben.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import net.jpountz.lz4.LZ4FrameInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;

/**
 * A compressed load body as the servers decode it before reading its rows (StarRocks docs "STREAM LOAD", data_desc:
 * {@code compression} GZIP/BZIP2/LZ4_FRAME/ZSTD for JSON since 3.2.7, compressed-CSV {@code format}
 * gzip/bzip2/lz4/zstd;
 * Doris docs "Stream Load", {@code compress_type} gz/bz2/lz4): gzip (JDK), bzip2 (Apache Commons Compress), the LZ4
 * frame format (lz4-java), Zstandard (zstd-jni). Concatenated streams are read through, as the servers read the
 * bodies of one transaction as one stream. A body that does not decode fails its load with INTERNAL_ERROR naming the
 * codec (the message is the emulator's own). Stateless.
 */
public enum BodyDecompression {
    GZIP, BZIP2, LZ4_FRAME, ZSTD;

    /**
     * @param body the bytes as received
     * @return the decoded bytes; an empty body stays empty
     * @throws LoadFormatException INTERNAL_ERROR if the body is not a valid, complete stream of this codec
     */
    public byte[] decode(byte[] body) throws LoadFormatException {
        if (body.length == 0) {
            return body;
        }
        try (InputStream in = open(new ByteArrayInputStream(body))) {
            return in.readAllBytes();
        } catch (IOException | RuntimeException e) {
            throw new LoadFormatException("INTERNAL_ERROR", "failed to decompress the " + this + " body ("
                    + body.length + " bytes): " + e.getMessage());
        }
    }

    private InputStream open(InputStream in) throws IOException {
        return switch (this) {
            case GZIP -> new GZIPInputStream(in);
            case BZIP2 -> new BZip2CompressorInputStream(in, true);
            case LZ4_FRAME -> new LZ4FrameInputStream(in);
            case ZSTD -> new ZstdInputStream(in);
        };
    }
}
