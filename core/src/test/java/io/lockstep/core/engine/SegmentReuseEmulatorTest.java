package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.buffer.SegmentPool;
import io.lockstep.core.client.DorisTransactionClient;
import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.emulator.DorisEmulator;
import io.lockstep.emulator.StarRocksEmulator;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Rows loaded through reused segments are exactly the rows written: both engines, over the real HTTP clients (with
 * the FE -> BE redirect that re-sends the body) against the emulator, with a buffer small enough that the engine's
 * {@link SegmentPool} hands every segment out several times. Each row's payload is derived from its id, so a row read
 * from a segment that another chunk already overwrote (or that the pool poisoned on its return: tests run with
 * assertions) either fails to parse or shows up as a wrong payload. A segment returned twice fails the engine.
 */
@Timeout(120)
class SegmentReuseEmulatorTest {
    private static final String DDL_TEMPLATE = """
            CREATE DATABASE shop;
            CREATE TABLE shop.t1 (id BIGINT NOT NULL, payload VARCHAR(4096)) %1$s KEY (id)
            DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("replication_num" = "1");
            CREATE TABLE shop.t2 (id BIGINT NOT NULL, payload VARCHAR(4096)) %1$s KEY (id)
            DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("replication_num" = "1");
            """;
    private static final int BUFFER_BYTES = 2 << 20;
    /** Rows per table per source transaction: about 600 KB, so every chunk grows into pooled segments. */
    private static final int ROWS_PER_TABLE = 300;

    /** About 2 KB of letters that only row {@code id} has. */
    private static String payload(long id) {
        StringBuilder text = new StringBuilder(2000);
        long x = id * 0x9E3779B97F4A7C15L + 1;
        for (int i = 0; i < 2000; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            text.append((char) ('a' + Math.floorMod(x, 26)));
        }
        return text.toString();
    }

    private static byte[] row(long id) {
        return ("{\"id\":" + id + ",\"payload\":\"" + payload(id) + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static Map<Long, String> rows(List<List<Object>> result) {
        Map<Long, String> rows = new HashMap<>();
        for (List<Object> row : result) {
            rows.put(((Number) row.get(0)).longValue(), (String) row.get(1));
        }
        return rows;
    }

    private static void assertExactly(Map<Long, String> loaded, long fromId, long toId, String table) {
        assertThat(loaded).as("rows of %s", table).hasSize((int) (toId - fromId));
        for (long id = fromId; id < toId; id++) {
            assertThat(loaded.get(id)).as("payload of row %d in %s", id, table).isEqualTo(payload(id));
        }
    }

    private static void assertPoolReusedAndEmpty(SegmentPool pool) {
        assertThat(pool.reusedSegments()).as("segments were handed out again").isGreaterThan(pool.maxOwnedSegments());
        assertThat(pool.inUseSegments()).as("every segment came back").isZero();
        assertThat(pool.ownedSegments()).isLessThanOrEqualTo(pool.maxFreeSegments());
    }

    @Test
    void multiTableRowsLoadedThroughReusedSegmentsAreExactlyTheRowsWritten() throws Exception {
        try (StarRocksEmulator sr = StarRocksEmulator.builder().ddl(DDL_TEMPLATE.formatted("PRIMARY")).build()) {
            sr.start();
            InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
            try (StarRocksTransactionClient client = new StarRocksTransactionClient(TransactionClientConfig.builder()
                    .loadUrls(sr.feUrl()).username("root").password("").build(), metrics)) {
                MultiTableLoadEngine engine = MultiTableLoadEngine.start(LoadEngineConfig.builder().labelPrefix("reuse")
                        .database("shop").commitIntervalMs(200).scanningFrequencyMs(5).bufferSizeBytes(BUFFER_BYTES)
                        .build(), client, metrics);
                int txns = 10;
                try {
                    long t1Id = 0;
                    long t2Id = 1_000_000;
                    for (int txn = 0; txn < txns; txn++) {
                        int partition = txn % 2;
                        for (int i = 0; i < ROWS_PER_TABLE; i++) {
                            engine.write(partition, "shop", "t1", row(t1Id++));
                            engine.write(partition, "shop", "t2", row(t2Id++));
                        }
                        engine.txnEnd(partition);
                    }
                    engine.flush();
                    assertPoolReusedAndEmpty(engine.segmentPool());
                } finally {
                    engine.close();
                }
                long perTable = (long) txns * ROWS_PER_TABLE;
                assertExactly(rows(sr.query("SELECT id, payload FROM shop.t1").rows()), 0, perTable, "t1");
                assertExactly(rows(sr.query("SELECT id, payload FROM shop.t2").rows()), 1_000_000,
                        1_000_000 + perTable, "t2");
                assertThat(engine.bufferedBytes()).isZero();
            }
        }
    }

    @Test
    void singleTableRowsLoadedThroughReusedSegmentsAreExactlyTheRowsWritten() throws Exception {
        try (DorisEmulator doris = DorisEmulator.builder().ddl(DDL_TEMPLATE.formatted("DUPLICATE")).build().start()) {
            InMemoryLoadMetrics metrics = new InMemoryLoadMetrics();
            try (DorisTransactionClient client = new DorisTransactionClient(TransactionClientConfig.builder()
                    .loadUrls(doris.feHostPort()).username("root").build(), metrics)) {
                SingleTableLoadEngine engine = SingleTableLoadEngine.start(LoadEngineConfig.builder()
                        .labelPrefix("reuse").runId("run1").scanningFrequencyMs(5).bufferSizeBytes(BUFFER_BYTES)
                        .loadMethod(LoadMethod.TWO_PHASE_STREAM_LOAD).loadProperty("format", "json")
                        .loadProperty("strip_outer_array", "true").build(), client, metrics,
                        DeliverySemantic.EXACTLY_ONCE, 0);
                int rows = 16 * ROWS_PER_TABLE;
                try {
                    for (int checkpoint = 1; checkpoint <= 4; checkpoint++) {
                        for (int id = (checkpoint - 1) * rows / 4; id < checkpoint * rows / 4; id++) {
                            engine.write("shop", "t1", row(id));
                        }
                        engine.requestCommit(engine.prepare(checkpoint)).get();
                    }
                    assertPoolReusedAndEmpty(engine.segmentPool());
                } finally {
                    engine.close();
                }
                assertExactly(rows(doris.query("SELECT id, payload FROM shop.t1").rows()), 0, rows, "t1");
            }
        }
    }
}
