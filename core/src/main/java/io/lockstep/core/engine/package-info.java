/**
 * Load engines of one sink subtask (no Flink types): they buffer rows per region, stream them into StarRocks
 * transactions through a {@link io.lockstep.core.client.TransactionClient}, and commit.
 *
 * <h2>Multi-table mode: {@link io.lockstep.core.engine.MultiTableLoadEngine}</h2>
 * <pre>{@code
 * LoadEngineConfig config = LoadEngineConfig.builder()
 *         .labelPrefix("shop").subtaskIndex(subtask).commitIntervalMs(1000)   // sink.buffer-flush.interval-ms
 *         .bufferSizeBytes(134217728)                                           // ...multi-table.buffer-size
 *         .build();
 * MultiTableLoadEngine engine = MultiTableLoadEngine.start(config, client, metrics);
 * // task thread, per row:
 * engine.write(row.getSourcePartition(), row.getDatabase(), row.getTable(), jsonBytes);
 * if (row.isTransactionEnd()) engine.txnEnd(row.getSourcePartition());
 * // task thread, at a checkpoint (snapshotState): everything so far is committed, or this throws
 * engine.flush();
 * // close(): rolls back the open shared transaction, never hangs
 * engine.close();
 * }</pre>
 *
 * <h2>Single-table modes: {@link io.lockstep.core.engine.SingleTableLoadEngine}</h2>
 * At-least-once: {@code write(db, table, row)}, {@code flush()} at a checkpoint. Exactly-once:
 * {@code prepare(checkpointId)} at the barrier returns the {@link io.lockstep.core.engine.PreparedTransaction}s to
 * keep in state; {@code requestCommit(...)} after the checkpoint completes (and on restore), {@code requestAbort(...)}
 * for lingering ones.
 *
 * <h3>Classic stream load (at-least-once only)</h3>
 * <pre>{@code
 * LoadEngineConfig config = LoadEngineConfig.builder().labelPrefix("shop").subtaskIndex(subtask)
 *         .loadMethod(LoadMethod.CLASSIC).commitIntervalMs(1000).build();
 * SingleTableLoadEngine engine = SingleTableLoadEngine.startClassic(config, new StarRocksStreamLoader(c, m), m);
 * engine.write(db, table, jsonBytes); // task thread engine.flush(); // at a checkpoint }</pre> With
 * {@link io.lockstep.core.engine.LoadMethod#CLASSIC} nothing is sent until a flush (the commit interval, a
 * {@code flush()}, or memory past the soft limit). Each flush then sends, per table, ONE classic stream load
 * ({@code PUT /api/{db}/{table}/_stream_load}, docs/protocol.md#starrocks-transaction-stream-load) whose body is all of
 * that table's buffered rows as a JSON array, under a fresh label
 * {@code {prefix}-{table}-{subtask}-{runId}-c{sequence}}; the load commits by itself. A retry of that request (for
 * instance after a lost reply) reuses the label, so the server answers "Label Already Exists"/FINISHED instead of
 * applying the rows twice (docs/protocol.md#labels-and-label-state). A failed load is stored and rethrown by the next
 * write or flush, like the transaction modes. The loads run on the I/O pool and report to the manager thread, which
 * releases their bytes, so the buffered-bytes counter returns to 0. Exactly-once needs a transaction that can stay
 * prepared until the checkpoint completes, so CLASSIC with
 * {@link io.lockstep.core.engine.DeliverySemantic#EXACTLY_ONCE} is refused at construction with an
 * {@link java.lang.IllegalArgumentException} ("loadMethod CLASSIC cannot be EXACTLY_ONCE").
 *
 * <h3>Two-phase stream load (Apache Doris, exactly-once only)</h3>
 * With {@link io.lockstep.core.engine.LoadMethod#TWO_PHASE_STREAM_LOAD} and a
 * {@link io.lockstep.core.client.DorisTransactionClient}, nothing is sent until a cut (memory past the soft limit, or
 * {@code prepare(checkpointId)}); each table's rows up to the cut then go out as ONE stream load with
 * {@code two_phase_commit: true}, its own pre-committed transaction, labelled
 * {@code {prefix}-{table}-{subtask}-{runId}-{checkpoint}_{flush}}. {@code prepare(checkpointId)} returns every such
 * transaction of the epoch; {@code requestCommit}/{@code requestAbort} settle them by label; {@code close()} and a
 * failure abort the ones not handed out yet (docs/doris.md).
 *
 * <h2>Threads</h2>
 * The task thread owns writes, transaction ends and active chunks; the manager thread
 * ({@link io.lockstep.core.engine.ManagerThread}, asleep until its cycle's next deadline or a signal) owns every
 * transaction operation and handles load replies; loads
 * run on a small I/O pool and report back through a queue. The region table and the memory budget each have one
 * lock; everything else is confined to one thread or published through a volatile field or a concurrent queue.
 * Tests drive {@code runOnce} directly on a {@link io.lockstep.core.time.ManualTicker}.
 */
package io.lockstep.core.engine;
