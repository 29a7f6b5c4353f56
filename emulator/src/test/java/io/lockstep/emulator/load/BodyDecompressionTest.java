package io.lockstep.emulator.load;

import static io.lockstep.emulator.load.LoadFixture.headers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Compressed bodies are decoded as the servers document (StarRocks docs "STREAM LOAD": {@code compression} for JSON,
 * compressed-CSV {@code format} values), concatenated streams read through, and a body that does not decode, or a
 * codec name the server does not know, fails the load.
 */
public class BodyDecompressionTest {
    private static final byte[] ROWS = "1,a\n2,b\n".getBytes(StandardCharsets.UTF_8);

    public static byte[] compress(BodyDecompression codec, byte[] plain) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = switch (codec) {
            case GZIP -> new GZIPOutputStream(bytes);
            case BZIP2 -> new BZip2CompressorOutputStream(bytes);
            case LZ4_FRAME -> new LZ4FrameOutputStream(bytes);
            case ZSTD -> new ZstdOutputStream(bytes);
        }) {
            out.write(plain);
        }
        return bytes.toByteArray();
    }

    @ParameterizedTest
    @EnumSource(BodyDecompression.class)
    void eachCodecDecodesOneAndConcatenatedStreams(BodyDecompression codec) throws Exception {
        assertThat(codec.decode(compress(codec, ROWS))).isEqualTo(ROWS);
        byte[] first = compress(codec, "1,a\n".getBytes(StandardCharsets.UTF_8));
        byte[] second = compress(codec, "2,b\n".getBytes(StandardCharsets.UTF_8));
        byte[] both = new byte[first.length + second.length];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        assertThat(codec.decode(both)).isEqualTo(ROWS);
    }

    @ParameterizedTest
    @EnumSource(BodyDecompression.class)
    void aBodyThatDoesNotDecodeFailsTheLoad(BodyDecompression codec) {
        assertThatThrownBy(() -> codec.decode(ROWS)).isInstanceOf(LoadFormatException.class)
                .satisfies(e -> assertThat(((LoadFormatException) e).statusCode()).isEqualTo("INTERNAL_ERROR"))
                .hasMessageContaining("failed to decompress the " + codec + " body");
    }

    @Test
    void theHeadersChooseTheCodecAsStarRocksNamesIt() throws Exception {
        StreamLoadFormat json = StreamLoadFormat.fromHeaders(headers("format", "json", "compression", "lz4_frame"));
        assertThat(json.decompress(compress(BodyDecompression.LZ4_FRAME, ROWS))).isEqualTo(ROWS);
        StreamLoadFormat csv = StreamLoadFormat.fromHeaders(headers("format", "zstd"));
        assertThat(csv.isJson()).isFalse();
        assertThat(csv.decompress(compress(BodyDecompression.ZSTD, ROWS))).isEqualTo(ROWS);
        assertThat(StreamLoadFormat.fromHeaders(headers("format", "csv")).decompress(ROWS)).isSameAs(ROWS);
        assertThat(StreamLoadFormat.fromHeaders(headers("format", "gzip"))
                .sameLoadRequest(StreamLoadFormat.fromHeaders(headers("format", "csv"))))
                .as("a compressed CSV load is another request than a plain one").isFalse();
        assertThatThrownBy(() -> StreamLoadFormat.fromHeaders(headers("format", "json", "compression", "brotli")))
                .isInstanceOf(LoadFormatException.class).hasMessage("unknown compression type: brotli");
    }
}
