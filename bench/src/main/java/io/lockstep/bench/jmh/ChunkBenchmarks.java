package io.lockstep.bench.jmh;

import io.lockstep.core.buffer.Chunk;
import io.lockstep.core.buffer.ChunkState;
import io.lockstep.core.buffer.RegionKey;
import io.lockstep.core.format.JsonLoadFormat;
import io.lockstep.core.format.LoadFormat;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Hot paths of the buffer: appending one JSON row to an active chunk, and turning frozen chunks into one HTTP body
 * ({@link LoadFormat#body} of {@link JsonLoadFormat} copied into one {@code [row,row,...]} array). Run with
 * {@code ./bench/run jmh} (see bench/README.md).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ChunkBenchmarks {
    private static final RegionKey REGION = new RegionKey(0, "bench", "t0");
    private static final LoadFormat FORMAT = JsonLoadFormat.INSTANCE;
    private static final byte[] SEPARATOR = FORMAT.rowSeparator();

    /** Row size, bytes. */
    @Param({"200", "2048"})
    public int rowBytes;

    private byte[] row;
    private Chunk chunk;
    private List<Chunk> frozen;

    @Setup(Level.Trial)
    public void setUp() {
        row = ("{\"id\":1,\"partition_no\":0,\"txn_no\":1,\"payload\":\"" + "x".repeat(Math.max(1, rowBytes - 50))
                + "\"}").getBytes(StandardCharsets.UTF_8);
        chunk = new Chunk(REGION, SEPARATOR);
        // a load body as the engine builds it: 4 frozen chunks of ~256 KB
        frozen = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            Chunk f = new Chunk(REGION, SEPARATOR);
            for (int size = 0; size < 256 * 1024; size += row.length) {
                f.append(row);
            }
            f.moveTo(ChunkState.FROZEN);
            frozen.add(f);
        }
    }

    /** One row appended to the active chunk (a fresh chunk every 4 MB, as a freeze would start one). */
    @Benchmark
    public Chunk appendRow() {
        if (chunk.rowBytes() > 4 * 1024 * 1024) {
            chunk = new Chunk(REGION, SEPARATOR);
        }
        chunk.append(row);
        return chunk;
    }

    /** One ~1 MB HTTP body from 4 frozen chunks. */
    @Benchmark
    public byte[] chunksToBody() {
        return FORMAT.body(frozen).toByteArray();
    }
}
