package io.lockstep.core.engine;

import io.lockstep.core.format.JsonLoadFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.buffer.Chunk;
import io.lockstep.core.buffer.ChunkState;
import io.lockstep.core.buffer.MemoryBudget;
import io.lockstep.core.buffer.RegionKey;
import io.lockstep.core.buffer.SegmentPool;
import io.lockstep.core.client.LoadReply;
import io.lockstep.core.client.TransactionRef;
import io.lockstep.core.metrics.InMemoryLoadMetrics;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The load hand-off both engines share: who releases a load's chunks, and when. Loads run on a manual executor, or
 * on a thread the test holds inside the sender, so every interleaving is chosen by the test.
 */
class LoadHandOffTest {
    private static final byte[] COMMA = JsonLoadFormat.INSTANCE.rowSeparator();
    private static final RegionKey REGION = new RegionKey(0, "db", "orders");
    private static final TransactionRef TXN = TransactionRef.multiTable("db", "L1");

    private final MemoryBudget budget = new MemoryBudget(1 << 20, 2 << 20, () -> { });
    private final FirstFailure failure = new FirstFailure();
    private final List<Runnable> queued = new ArrayList<>();
    private final LoadHandOff handOff = new LoadHandOff(budget, failure, new InMemoryLoadMetrics(), queued::add,
            () -> { }, JsonLoadFormat.INSTANCE);

    private Chunk loadingChunk(String row) throws InterruptedException {
        byte[] bytes = row.getBytes(StandardCharsets.UTF_8);
        budget.reserve(bytes.length, 1000, "row");
        Chunk chunk = new Chunk(REGION, COMMA);
        chunk.append(bytes);
        chunk.freeze(1);
        chunk.moveTo(ChunkState.LOADING);
        return chunk;
    }

    @Test
    void aFinishedLoadReleasesItsBytesWhenDrainedAndTheBodyIsBuiltOnTheIoThread() throws Exception {
        Chunk chunk = loadingChunk("{\"a\":1}");
        List<String> bodies = new ArrayList<>();
        handOff.start("orders", "orders", TXN, List.of(chunk), body -> {
            bodies.add(new String(body.toByteArray(), StandardCharsets.UTF_8));
            return new LoadReply(body.contentLength(), 1);
        });
        assertThat(bodies).as("nothing is sent before an I/O thread runs the load").isEmpty();
        assertThat(handOff.busy("orders")).isTrue();

        queued.remove(0).run();
        List<LoadCompletion> done = handOff.drain();

        assertThat(bodies).containsExactly("[{\"a\":1}]");
        assertThat(done).extracting(LoadCompletion::table).containsExactly("orders");
        assertThat(chunk.state()).isEqualTo(ChunkState.LOADED);
        assertThat(budget.usedBytes()).isZero();
        assertThat(handOff.idle()).isTrue();
    }

    @Test
    void aFailedLoadFailsTheEngineAndClosesTheBudgetBeforeReleasing() throws Exception {
        Chunk chunk = loadingChunk("{\"a\":1}");
        handOff.start("orders", "orders", TXN, List.of(chunk), body -> {
            throw new IllegalStateException("connection reset");
        });
        queued.remove(0).run();

        assertThatThrownBy(handOff::drain).isInstanceOf(LoadEngineException.class)
                .hasMessageContaining("load of 1 rows").hasMessageContaining("db.orders")
                .hasMessageContaining("connection reset");
        assertThat(failure.get()).isNotNull();
        assertThat(chunk.state()).isEqualTo(ChunkState.DISCARDED);
        assertThat(budget.usedBytes()).isZero();
        assertThatThrownBy(() -> budget.reserve(1, 1000, "row"))
                .as("a writer wakes to the failure, not to room")
                .isInstanceOf(io.lockstep.core.buffer.BufferExhaustedException.class);
    }

    @Test
    void shutdownReleasesALoadNoIoThreadPickedUpAndTheLoadThenSendsNothing() throws Exception {
        Chunk chunk = loadingChunk("{\"a\":1}");
        List<byte[]> sent = new ArrayList<>();
        handOff.start("orders", "orders", TXN, List.of(chunk), body -> {
            sent.add(body.toByteArray());
            return new LoadReply(body.contentLength(), 1);
        });

        handOff.shutdown(new RegionTable());
        assertThat(budget.usedBytes()).isZero();
        assertThat(chunk.state()).isEqualTo(ChunkState.DISCARDED);

        queued.remove(0).run(); // the executor runs it late: it must not read the released chunks
        assertThat(sent).isEmpty();
    }

    @Test
    void shutdownLeavesTheChunksOfALoadBeingSentToItsIoThreadWhichReleasesThemWhenItEnds() throws Exception {
        Chunk chunk = loadingChunk("{\"a\":1}");
        CountDownLatch reply = new CountDownLatch(1);
        Thread io = sendUntil(reply, List.of(chunk));

        handOff.shutdown(new RegionTable());
        assertThat(budget.usedBytes()).as("still read by the I/O thread").isPositive();
        assertThat(chunk.state()).isEqualTo(ChunkState.LOADING);

        reply.countDown();
        io.join(10_000);
        assertThat(io.isAlive()).isFalse();
        assertThat(budget.usedBytes()).as("released by the I/O thread as it ended").isZero();
        assertThat(chunk.state()).isEqualTo(ChunkState.DISCARDED);
        assertThat(handOff.drain()).as("its completion is dropped").isEmpty();
    }

    @Test
    void aRetryInsideTheSendWritesTheSameBytesAndTheChunksStayLoadingUntilTheOutcomeIsDrained() throws Exception {
        SegmentPool pool = new SegmentPool(1 << 20, 2 << 20, budget::usedBytes);
        List<Chunk> chunks = new ArrayList<>();
        String expected = pooledLoadingChunk(pool, chunks, "r");
        List<String> attempts = new ArrayList<>();
        List<ChunkState> statesWhileSending = new ArrayList<>();
        handOff.start("orders", "orders", TXN, chunks, body -> {
            for (int attempt = 0; attempt < 2; attempt++) { // as a client's retry or a 307 hop writes it again
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                try {
                    body.writeTo(out);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                attempts.add(new String(out.toByteArray(), StandardCharsets.UTF_8));
                statesWhileSending.add(chunks.get(0).state());
            }
            throw new io.lockstep.core.client.LoadOutcomeUnknownException("outcome unknown after a reset", null);
        });
        queued.remove(0).run();

        assertThat(attempts).containsExactly(expected, expected);
        assertThat(statesWhileSending).containsOnly(ChunkState.LOADING);
        assertThat(chunks.get(0).state()).as("not released before the manager drains the outcome")
                .isEqualTo(ChunkState.LOADING);
        assertThat(pool.inUseSegments()).isPositive();
        assertThatThrownBy(handOff::drain).isInstanceOf(LoadEngineException.class)
                .hasMessageContaining("outcome unknown");
        assertThat(chunks.get(0).state()).isEqualTo(ChunkState.DISCARDED);
        assertThat(pool.inUseSegments()).isZero();
    }

    @Test
    void oneLoadAtATimePerKey() throws Exception {
        handOff.start("orders", "orders", TXN, List.of(loadingChunk("{\"a\":1}")), body -> new LoadReply(0, 1));
        assertThatThrownBy(() -> handOff.start("orders", "orders", TXN, List.of(loadingChunk("{\"b\":2}")),
                body -> new LoadReply(0, 1))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("orders");
    }

    /** Adds a LOADING chunk of about 1 MiB whose larger segments come from {@code pool}; returns its body. */
    private String pooledLoadingChunk(SegmentPool pool, List<Chunk> into, String fill) throws InterruptedException {
        Chunk chunk = new Chunk(REGION, pool, COMMA);
        StringBuilder body = new StringBuilder("[");
        for (int i = 0; i < 1000; i++) {
            byte[] row = ("{\"i\":" + i + ",\"v\":\"" + fill.repeat(1000) + "\"}").getBytes(StandardCharsets.UTF_8);
            budget.reserve(row.length, 1000, "row");
            chunk.append(row);
            body.append(i == 0 ? "" : ",").append(new String(row, StandardCharsets.UTF_8));
        }
        chunk.freeze(1);
        chunk.moveTo(ChunkState.LOADING);
        into.add(chunk);
        return body.append(']').toString();
    }

    @Test
    void pooledSegmentsGoBackOnlyOnceTheLoadIsDrainedAndTheNextLoadReusesThem() throws Exception {
        SegmentPool pool = new SegmentPool(1 << 20, 2 << 20, budget::usedBytes);
        List<Chunk> chunks = new ArrayList<>();
        String expected = pooledLoadingChunk(pool, chunks, "a");
        int inUse = pool.inUseSegments();
        assertThat(inUse).isPositive();
        List<String> bodies = new ArrayList<>();
        handOff.start("orders", "orders", TXN, chunks, body -> {
            bodies.add(new String(body.toByteArray(), StandardCharsets.UTF_8));
            return new LoadReply(body.contentLength(), 1000);
        });
        queued.remove(0).run();
        assertThat(pool.inUseSegments()).as("sent, but not drained yet").isEqualTo(inUse);
        handOff.drain();
        assertThat(pool.inUseSegments()).isZero();
        assertThat(bodies).containsExactly(expected);

        List<Chunk> next = new ArrayList<>();
        String expectedNext = pooledLoadingChunk(pool, next, "b"); // other rows, in the reused segments
        assertThat(pool.reusedSegments()).isPositive();
        handOff.start("orders", "orders", TXN, next, body -> {
            bodies.add(new String(body.toByteArray(), StandardCharsets.UTF_8));
            return new LoadReply(body.contentLength(), 1000);
        });
        queued.remove(0).run();
        handOff.drain();
        assertThat(bodies.get(1)).isEqualTo(expectedNext);
        assertThat(budget.usedBytes()).isZero();
    }

    @Test
    void shutdownDuringASendLeavesThePooledSegmentsInUseUntilTheIoThreadEnds() throws Exception {
        SegmentPool pool = new SegmentPool(1 << 20, 2 << 20, budget::usedBytes);
        List<Chunk> chunks = new ArrayList<>();
        pooledLoadingChunk(pool, chunks, "c");
        int inUse = pool.inUseSegments();
        CountDownLatch reply = new CountDownLatch(1);
        Thread io = sendUntil(reply, chunks);

        handOff.shutdown(new RegionTable(pool, COMMA));
        assertThat(pool.inUseSegments()).as("the I/O thread may still read them").isEqualTo(inUse);

        reply.countDown();
        io.join(10_000);
        assertThat(io.isAlive()).isFalse();
        assertThat(pool.inUseSegments()).as("returned by the I/O thread as it ended").isZero();
        assertThat(chunks.get(0).state()).isEqualTo(ChunkState.DISCARDED);
    }

    /**
     * Starts the load of {@code chunks} on an I/O thread of its own whose send waits for {@code reply}; returns once
     * the send has begun.
     */
    private Thread sendUntil(CountDownLatch reply, List<Chunk> chunks) throws InterruptedException {
        CountDownLatch sending = new CountDownLatch(1);
        handOff.start("orders", "orders", TXN, chunks, body -> {
            sending.countDown();
            try {
                reply.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new LoadReply(body.contentLength(), 1);
        });
        Thread io = new Thread(queued.remove(0), "io");
        io.start();
        assertThat(sending.await(10, TimeUnit.SECONDS)).isTrue();
        return io;
    }
}
