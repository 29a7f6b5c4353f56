package io.lockstep.core.buffer;

import io.lockstep.core.format.JsonLoadFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

class ChunkTest {
    private static final JsonLoadFormat JSON = JsonLoadFormat.INSTANCE;
    private static final byte[] COMMA = JSON.rowSeparator();
    private final RegionKey key = new RegionKey(3, "db", "orders");

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void bodyIsAJsonArrayOfTheRowsOfEveryChunkInOrder() {
        Chunk first = new Chunk(key, COMMA);
        first.append(b("{\"a\":1}"));
        first.append(b("{\"a\":2}"));
        Chunk empty = new Chunk(key, COMMA);
        Chunk second = new Chunk(key, COMMA);
        second.append(b("{\"a\":3}"));
        byte[] body = JSON.body(List.of(first, empty, second)).toByteArray();
        assertThat(new String(body, StandardCharsets.UTF_8)).isEqualTo("[{\"a\":1},{\"a\":2},{\"a\":3}]");
        assertThat(JSON.body(List.of(first, empty, second)).contentLength()).isEqualTo(body.length);
        assertThat(first.rowBytes()).isEqualTo(14);
        assertThat(first.rowCount()).isEqualTo(2);
    }

    @Test
    void growsPastItsInitialCapacity() {
        Chunk chunk = new Chunk(key, COMMA);
        String row = "{\"v\":\"" + "x".repeat(300) + "\"}";
        for (int i = 0; i < 10; i++) {
            chunk.append(b(row));
        }
        String body = new String(JSON.body(List.of(chunk)).toByteArray(), StandardCharsets.UTF_8);
        assertThat(body).startsWith("[" + row + "," + row).endsWith(row + "]");
        assertThat(body.length()).isEqualTo(2 + 10 * row.length() + 9);
    }

    @Test
    void rowsSpanningManySegmentsComeBackWholeAndInOrder() {
        Chunk chunk = new Chunk(key, COMMA);
        StringBuilder expected = new StringBuilder("[");
        // 3,001-byte rows cross every segment boundary at a different offset; 1,200 of them pass 3 MiB, so the
        // segments reach their largest size
        for (int i = 0; i < 1200; i++) {
            String row = "{\"i\":" + String.format("%04d", i) + ",\"v\":\"" + "x".repeat(2984) + "\"}";
            chunk.append(b(row));
            expected.append(i == 0 ? "" : ",").append(row);
        }
        expected.append(']');
        chunk.freeze(1);
        byte[] body = JSON.body(List.of(chunk)).toByteArray();
        assertThat(new String(body, StandardCharsets.UTF_8)).isEqualTo(expected.toString());
        assertThat(JSON.body(List.of(chunk)).contentLength()).isEqualTo(body.length);
        assertThat(chunk.rowBytes()).isEqualTo(1200L * 3001);
    }

    @Test
    void spareCapacityStaysBelowTheContentOrOneSegment() {
        assertSpareCapacityBound(new Chunk(key, COMMA));
    }

    @Test
    void spareCapacityStaysBelowTheContentOrOneSegmentWithPooledSegments() {
        SegmentPool pool = new SegmentPool(64 << 20, 128 << 20, () -> 0);
        assertSpareCapacityBound(new Chunk(key, pool, COMMA));
        assertThat(pool.inUseSegments()).as("the frozen chunk still holds its full pooled segments").isPositive();
    }

    private static void assertSpareCapacityBound(Chunk chunk) {
        byte[] row = b("{\"v\":\"" + "y".repeat(190) + "\"}");
        for (int i = 0; i < 50_000; i++) {
            chunk.append(row);
            long content = chunk.rowBytes() + chunk.rowCount() - 1;
            long spare = chunk.capacityBytes() - content;
            assertThat(spare).as("spare after %d rows", i + 1)
                    .isLessThanOrEqualTo(Math.max(256, Math.min(content, Chunk.MAX_SEGMENT_BYTES)));
        }
        chunk.freeze(1);
        assertThat(chunk.capacityBytes()).as("frozen: no spare capacity")
                .isEqualTo(chunk.rowBytes() + chunk.rowCount() - 1);
    }

    @Test
    void stateMachineAllowsOnlyItsTable() {
        Chunk chunk = new Chunk(key, COMMA);
        chunk.append(b("{}"));
        chunk.freeze(7);
        assertThat(chunk.freezeSequence()).isEqualTo(7);
        assertThatThrownBy(() -> chunk.append(b("{}"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("FROZEN");
        assertThatThrownBy(() -> chunk.moveTo(ChunkState.LOADED)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("FROZEN -> LOADED").hasMessageContaining("db.orders (partition 3)");
        chunk.moveTo(ChunkState.LOADING);
        chunk.moveTo(ChunkState.LOADED);
        for (ChunkState next : ChunkState.values()) {
            assertThat(ChunkState.LOADED.canMoveTo(next)).isFalse();
        }
        assertThat(ChunkState.ACTIVE.canMoveTo(ChunkState.LOADING)).isFalse();
    }

    @Test
    void uncleanRegionRefusesToSwitch() {
        Region region = new Region(key, COMMA);
        region.write(b("{}"));
        assertThatThrownBy(() -> region.switchChunk(1, 5)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("partial source transaction");
        region.markClean();
        assertThat(region.switchChunk(1, 5)).isTrue();
        assertThat(region.lastSwitchTimeMs()).isEqualTo(5);
        assertThat(region.switchChunk(2, 6)).as("empty active chunk: nothing to freeze").isFalse();
    }

    /** 1,000 rows of 1,001 bytes: about 1 MiB, so the chunk takes many segments from its pool. */
    private static List<byte[]> megabyteOfRows(String tag) {
        List<byte[]> rows = new java.util.ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            rows.add(b("{\"t\":\"" + tag + "\",\"i\":" + String.format("%04d", i) + ",\"v\":\"" + "z".repeat(974)
                    + "\"}"));
        }
        return rows;
    }

    private static String body(List<byte[]> rows) {
        StringBuilder body = new StringBuilder("[");
        for (byte[] row : rows) {
            body.append(body.length() == 1 ? "" : ",").append(new String(row, StandardCharsets.UTF_8));
        }
        return body.append(']').toString();
    }

    @Test
    void aLoadedChunkGivesItsPooledSegmentsBackAndTheNextChunkHoldsExactlyItsOwnRows() {
        SegmentPool pool = new SegmentPool(8 << 20, 16 << 20, () -> 0);
        Chunk first = new Chunk(key, pool, COMMA);
        List<byte[]> firstRows = megabyteOfRows("first");
        firstRows.forEach(first::append);
        int pooled = first.pooledSegmentCount();
        assertThat(pooled).as("segments past the first 8 KiB come from the pool").isGreaterThan(20);
        first.freeze(1);
        assertThat(first.capacityBytes()).as("frozen: no spare capacity, pooled or not")
                .isEqualTo(first.rowBytes() + first.rowCount() - 1);
        first.moveTo(ChunkState.LOADING);
        assertThat(new String(JSON.body(List.of(first)).toByteArray(), StandardCharsets.UTF_8))
                .isEqualTo(body(firstRows));
        int inUse = pool.inUseSegments();
        assertThat(inUse).isEqualTo(first.pooledSegmentCount());
        first.moveTo(ChunkState.LOADED);
        assertThat(pool.inUseSegments()).isZero();
        assertThat(pool.freeSegments()).as("the last one came back at the freeze").isEqualTo(pooled);
        assertThat(first.capacityBytes()).as("a loaded chunk holds no segment").isZero();
        assertThatThrownBy(() -> JSON.body(List.of(first)).toByteArray()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("segments were released").hasMessageContaining("LOADED");

        Chunk second = new Chunk(key, pool, COMMA);
        List<byte[]> secondRows = megabyteOfRows("second");
        secondRows.forEach(second::append);
        second.freeze(2);
        assertThat(pool.reusedSegments()).as("the second chunk reuses the first one's segments").isEqualTo(pooled);
        assertThat(new String(JSON.body(List.of(second)).toByteArray(), StandardCharsets.UTF_8))
                .isEqualTo(body(secondRows));
    }

    @Test
    void freezingGivesThePartlyFilledLastPooledSegmentBackAndDiscardingGivesBackTheRest() {
        SegmentPool pool = new SegmentPool(8 << 20, 16 << 20, () -> 0);
        Chunk chunk = new Chunk(key, pool, COMMA);
        megabyteOfRows("x").forEach(chunk::append);
        int whileActive = chunk.pooledSegmentCount();
        chunk.freeze(1);
        assertThat(chunk.pooledSegmentCount()).isEqualTo(whileActive - 1);
        assertThat(pool.freeSegments()).isEqualTo(1);
        chunk.moveTo(ChunkState.DISCARDED);
        assertThat(pool.inUseSegments()).isZero();
        assertThat(pool.freeSegments()).isEqualTo(whileActive);

        Chunk active = new Chunk(key, pool, COMMA);
        megabyteOfRows("y").forEach(active::append);
        active.moveTo(ChunkState.DISCARDED); // engine closed while the chunk was still being written
        assertThat(pool.inUseSegments()).isZero();
    }

    @Test
    void pastThePoolsBoundAChunkAllocatesPlainSegmentsAndTrimsThemWhenFrozen() {
        // hard limit of two segments: a 1 MiB chunk takes two from the pool, the rest are plain
        SegmentPool pool = new SegmentPool(SegmentPool.SEGMENT_BYTES, 2L * SegmentPool.SEGMENT_BYTES, () -> 0);
        Chunk chunk = new Chunk(key, pool, COMMA);
        List<byte[]> rows = megabyteOfRows("x");
        rows.forEach(chunk::append);
        assertThat(chunk.pooledSegmentCount()).isEqualTo(2);
        chunk.freeze(1);
        assertThat(chunk.capacityBytes()).isEqualTo(chunk.rowBytes() + chunk.rowCount() - 1);
        chunk.moveTo(ChunkState.LOADING);
        assertThat(new String(JSON.body(List.of(chunk)).toByteArray(), StandardCharsets.UTF_8)).isEqualTo(body(rows));
        chunk.moveTo(ChunkState.LOADED);
        assertThat(pool.inUseSegments()).isZero();
        assertThat(pool.freeSegments()).as("buffer-size of one segment kept").isEqualTo(1);
    }
}
