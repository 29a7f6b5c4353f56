package io.lockstep.core.engine;

import io.lockstep.core.format.JsonLoadFormat;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.buffer.Chunk;
import io.lockstep.core.buffer.ChunkState;
import io.lockstep.core.buffer.Region;
import io.lockstep.core.buffer.RegionKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A backlog of frozen chunks goes out in loads of bounded size (buffer-size / 8, between 1 and 16 MiB of rows), so
 * the body copy a load holds next to its chunks stays small; the chunks keep their order across loads.
 */
class MultiTableLoadSizeTest {
    private static final byte[] COMMA = JsonLoadFormat.INSTANCE.rowSeparator();
    private static final int ROW_BYTES = 64 * 1024;
    private final EngineFixture f = new EngineFixture(); // buffer 1 MiB: loads of at most 1 MiB of rows

    @AfterEach
    void close() {
        f.close();
    }

    private static byte[] bigRow(int n) {
        String head = "{\"id\":\"" + String.format("%03d", n) + "\",\"v\":\"";
        return (head + "x".repeat(ROW_BYTES - head.length() - 2) + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aBacklogLoadsInBodiesOfAtMostTheCapAndInOrder() throws Exception {
        for (int n = 0; n < 28; n++) { // 28 x 64 KiB = 1.75 MiB, below the 2 MiB hard limit
            f.engine.write(0, "db", "orders", bigRow(n));
            f.engine.txnEnd(0);
            f.clock.advanceMs(f.engine.config().miniIntervalMs()); // every transaction freezes its own chunk
        }
        f.engine.requestFlush();
        f.drive();
        List<FakeTransactionClient.Call> loads = f.client.calls("load");
        assertThat(loads).as("1.75 MiB of rows needs two loads of at most 1 MiB").hasSizeGreaterThanOrEqualTo(2);
        List<String> ids = new ArrayList<>();
        for (FakeTransactionClient.Call load : loads) {
            assertThat(load.body().length()).as("load body").isLessThanOrEqualTo((1 << 20) + ROW_BYTES + 64);
            for (String row : FakeTransactionClient.splitRows(load.body())) {
                ids.add(row.substring(7, 10));
            }
        }
        List<String> expected = new ArrayList<>();
        for (int n = 0; n < 28; n++) {
            expected.add(String.format("%03d", n));
        }
        assertThat(ids).as("every row once, in order").isEqualTo(expected);
        assertThat(f.client.calls("commit")).hasSize(1);
    }

    @Test
    void aRegionHandsOutFrozenChunksUpToTheByteCapButAlwaysOne() {
        Region region = new Region(new RegionKey(0, "db", "orders"), COMMA);
        for (int n = 0; n < 5; n++) {
            region.write(bigRow(n));
            region.markClean();
            region.switchChunk(n + 1, n);
        }
        List<Chunk> first = region.takeFrozen(Long.MAX_VALUE, 2L * ROW_BYTES + 1);
        assertThat(first).as("stops once the cap is reached").hasSize(3);
        assertThat(first).allMatch(c -> c.state() == ChunkState.LOADING);
        assertThat(region.takeFrozen(Long.MAX_VALUE, 1)).as("one chunk even past the cap").hasSize(1)
                .first().extracting(Chunk::freezeSequence).isEqualTo(4L);
        assertThat(region.takeFrozen(3, Long.MAX_VALUE)).as("the sequence cut still applies").isEmpty();
        assertThat(region.takeFrozen(Long.MAX_VALUE, Long.MAX_VALUE)).hasSize(1);
    }
}
