package io.lockstep.core.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.ZstdInputStream;
import io.lockstep.core.buffer.Chunk;
import io.lockstep.core.buffer.RegionKey;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import net.jpountz.lz4.LZ4FrameInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A compressed body is compressed once, when the load is built: its length is known up front, every write sends the
 * same bytes, and they decode (with an independent decoder) to the plain format's body. The headers declare the
 * compression as each target reads it.
 */
class CompressedLoadFormatTest {
    private static final RegionKey KEY = new RegionKey(0, "db", "t");

    private static byte[] decode(BodyCompression c, byte[] bytes) throws IOException {
        ByteArrayInputStream in = new ByteArrayInputStream(bytes);
        try (InputStream decoder = switch (c) {
            case GZIP -> new GZIPInputStream(in);
            case BZIP2 -> new BZip2CompressorInputStream(in);
            case LZ4_FRAME -> new LZ4FrameInputStream(in);
            case ZSTD -> new ZstdInputStream(in);
        }) {
            return decoder.readAllBytes();
        }
    }

    private static List<Chunk> chunks(LoadFormat format) {
        Chunk chunk = new Chunk(KEY, format.rowSeparator());
        for (int i = 0; i < 500; i++) {
            chunk.append(format.encodeRow("db", "t", ("{\"id\":" + i + ",\"v\":\"row " + i + "\"}")
                    .getBytes(StandardCharsets.UTF_8), Map.of()));
        }
        return List.of(chunk);
    }

    @ParameterizedTest
    @EnumSource(BodyCompression.class)
    void theBodyIsCompressedOnceAndEveryWriteSendsTheSameBytes(BodyCompression c) throws IOException {
        for (LoadFormat plain : List.of(JsonLoadFormat.INSTANCE, CsvLoadFormat.fromHeaders(Map.of()))) {
            CompressedLoadFormat format = new CompressedLoadFormat(plain, c);
            List<Chunk> chunks = chunks(format);
            LoadBody body = format.body(chunks);
            ByteArrayOutputStream first = new ByteArrayOutputStream();
            body.writeTo(first);
            ByteArrayOutputStream retry = new ByteArrayOutputStream();
            body.writeTo(retry);

            assertThat(retry.toByteArray()).isEqualTo(first.toByteArray());
            assertThat(body.contentLength()).isEqualTo(first.size());
            byte[] expected = plain.body(chunks).toByteArray();
            assertThat(decode(c, first.toByteArray())).isEqualTo(expected);
            assertThat(body.contentLength()).as("%s of %s", c, plain).isLessThan(expected.length);
        }
    }

    @ParameterizedTest
    @EnumSource(BodyCompression.class)
    void theHeadersDeclareTheCompressionAsEachTargetNamesIt(BodyCompression c) {
        CompressedLoadFormat json = new CompressedLoadFormat(JsonLoadFormat.INSTANCE, c);
        CompressedLoadFormat csv = new CompressedLoadFormat(CsvLoadFormat.fromHeaders(Map.of()), c);
        assertThat(json.starRocksHeaders()).containsEntry("compression", c.name())
                .containsEntry("ignore_json_size", "true");
        assertThat(csv.starRocksHeaders()).isEqualTo(Map.of("format", c.starRocksCsvFormat()));
        json.checkHeaders("t", Map.of("format", "json", "strip_outer_array", "true", "compression", c.name()));
        csv.checkHeaders("t", Map.of("format", c.starRocksCsvFormat()));
        assertThatThrownBy(() -> csv.checkHeaders("load properties of db.t", Map.of("format", "csv")))
                .hasMessageStartingWith("load properties of db.t must declare the body's compression " + c);
        if (c == BodyCompression.ZSTD) {
            assertThat(c.dorisCompressType()).isEmpty();
            assertThatThrownBy(json::dorisHeaders).isInstanceOf(IllegalStateException.class);
        } else {
            String type = c.dorisCompressType().orElseThrow();
            assertThat(csv.dorisHeaders()).isEqualTo(Map.of("compress_type", type));
            csv.checkHeaders("t", Map.of("format", "csv", "compress_type", type));
            assertThat(BodyCompression.fromDorisName(type.toUpperCase())).isEqualTo(c);
        }
    }
}
