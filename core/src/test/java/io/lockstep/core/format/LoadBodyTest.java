package io.lockstep.core.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.buffer.Chunk;
import io.lockstep.core.buffer.ChunkState;
import io.lockstep.core.buffer.RegionKey;
import io.lockstep.core.buffer.SegmentPool;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The streamed load body: written from the chunks' segments, it must be byte for byte the array the sinks sent
 * before ({@code [} the rows of every non-empty chunk joined by {@code ,} {@code ]}, as
 * {@link JsonLoadFormatTest} pins), every time it is written.
 */
class LoadBodyTest {
    private static final JsonLoadFormat JSON = JsonLoadFormat.INSTANCE;
    private static final RegionKey KEY = new RegionKey(0, "db", "orders");
    private static final String[] ALPHABET = {"a", "Z", "7", " ", "é", "日本", "\uD83D\uDE00", "\\\"", "ß"};

    private static byte[] streamed(LoadBody body) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        body.writeTo(out);
        return out.toByteArray();
    }

    private static String randomRow(Random random, int chunk, int i) {
        StringBuilder value = new StringBuilder();
        int length = random.nextInt(8) == 0 ? random.nextInt(12_000) : random.nextInt(200);
        for (int k = 0; k < length; k++) {
            value.append(ALPHABET[random.nextInt(ALPHABET.length)]);
        }
        return "{\"c\":" + chunk + ",\"i\":" + i + ",\"v\":\"" + value + "\"}";
    }

    @Test
    void randomChunksStreamIntoTheSameBytesAsTheAssembledArrayOnEveryWrite() throws IOException {
        Random random = new Random(20_261_203L);
        SegmentPool pool = new SegmentPool(4 << 20, 8 << 20, () -> 0);
        for (int round = 0; round < 20; round++) {
            List<String> rows = new ArrayList<>();
            List<Chunk> chunks = new ArrayList<>();
            int chunkCount = random.nextInt(6);
            for (int c = 0; c < chunkCount; c++) {
                // pooled chunks cross into the pool's segments past 8 KiB; plain ones grow their own
                Chunk chunk = random.nextBoolean() ? new Chunk(KEY, pool, JSON.rowSeparator())
                        : new Chunk(KEY, JSON.rowSeparator());
                int rowCount = random.nextInt(3) == 0 ? 0 : random.nextInt(80);
                for (int i = 0; i < rowCount; i++) {
                    String row = randomRow(random, c, i);
                    chunk.append(row.getBytes(StandardCharsets.UTF_8));
                    rows.add(row);
                }
                chunk.freeze(c + 1);
                chunks.add(chunk);
            }
            byte[] expected = ("[" + String.join(",", rows) + "]").getBytes(StandardCharsets.UTF_8);

            LoadBody body = JSON.body(chunks);

            assertThat(body.contentLength()).as("round %d", round).isEqualTo(expected.length)
                    .isEqualTo(JSON.body(chunks).contentLength());
            assertThat(streamed(body)).as("round %d, first write", round).isEqualTo(expected);
            assertThat(streamed(body)).as("round %d, a retry writes the same bytes", round).isEqualTo(expected);
            assertThat(body.toByteArray()).as("round %d", round).isEqualTo(expected);
            assertThat(JSON.body(chunks).toByteArray()).as("round %d", round).isEqualTo(expected);
            for (Chunk chunk : chunks) {
                chunk.moveTo(ChunkState.LOADING);
                chunk.moveTo(ChunkState.LOADED); // gives pooled segments back for the next round to reuse
            }
        }
        assertThat(pool.reusedSegments()).as("later rounds wrote their rows into reused segments").isPositive();
    }

    @Test
    void emptyChunksMakeAnEmptyArrayAndNoSeparator() throws IOException {
        Chunk empty = new Chunk(KEY, JSON.rowSeparator());
        empty.freeze(1);
        Chunk one = new Chunk(KEY, JSON.rowSeparator());
        one.append("{\"ü\":\"€\"}".getBytes(StandardCharsets.UTF_8));
        one.freeze(2);

        assertThat(streamed(JSON.body(List.of(empty)))).isEqualTo("[]".getBytes(StandardCharsets.UTF_8));
        assertThat(streamed(JSON.body(List.of()))).isEqualTo("[]".getBytes(StandardCharsets.UTF_8));
        assertThat(streamed(JSON.body(List.of(empty, one, empty))))
                .isEqualTo("[{\"ü\":\"€\"}]".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aBodyWhoseChunkWasLoadedRefusesToWriteNamingTheRegion() {
        Chunk chunk = new Chunk(KEY, JSON.rowSeparator());
        chunk.append("{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        chunk.freeze(1);
        LoadBody body = JSON.body(List.of(chunk));
        chunk.moveTo(ChunkState.LOADING);
        chunk.moveTo(ChunkState.LOADED);

        assertThatThrownBy(() -> body.writeTo(new ByteArrayOutputStream()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("orders")
                .hasMessageContaining("LOADED");
    }

    @Test
    void anArrayBodyWritesItsBytesAndTheirLength() throws IOException {
        byte[] bytes = "[{\"k\":\"日本\"}]".getBytes(StandardCharsets.UTF_8);

        LoadBody body = LoadBody.of(bytes);

        assertThat(body.contentLength()).isEqualTo(bytes.length);
        assertThat(streamed(body)).isEqualTo(bytes);
        assertThat(body.toByteArray()).isEqualTo(bytes);
    }
}
