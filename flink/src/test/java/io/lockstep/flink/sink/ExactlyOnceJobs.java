package io.lockstep.flink.sink;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.core.restart.CheckpointedTransaction;
import io.lockstep.emulator.storage.QueryResult;
import io.lockstep.flink.sink.v2.SinkV2Jobs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The job and the checks of the exactly-once SinkFunction ITs on either target ({@link ExactlyOnceSinkIT},
 * {@link DorisExactlyOnceSinkIT}): rows {@code {"id": n}} of {@code eo.events} (a DUPLICATE KEY table, so a row loaded
 * twice shows twice) from a bounded, checkpointed {@link CheckpointPacedSource} through a
 * {@link FaultyExactlyOnceSink}, and what a test compares afterwards.
 */
final class ExactlyOnceJobs {
    /** Rows the source emits between two checkpoints. */
    static final int BATCH = 100;
    /** The query {@link #idCounts} reads: id → how many times it is visible in eo.events. */
    static final String ID_COUNTS = "SELECT id, COUNT(*) FROM eo.events GROUP BY id";

    private ExactlyOnceJobs() {
    }

    /**
     * Runs one job to its end: rows {@code [from, to)} through the faulty sink at parallelism 2, checkpoints every
     * {@code checkpointMs}, {@code restarts} fixed-delay restarts (0: the first failure fails the job).
     *
     * @throws Exception the job's failure
     */
    static void run(StarRocksSinkOptions options, long from, long to, int restarts, long checkpointMs, String name)
            throws Exception {
        StreamExecutionEnvironment env = SinkV2Jobs.env(checkpointMs, restarts);
        env.addSource(new CheckpointPacedSource("eo", "events", from, to, BATCH))
                .returns(TypeInformation.of(DefaultStarRocksRowData.class))
                .setParallelism(1)
                .rebalance()
                .addSink(new FaultyExactlyOnceSink(options))
                .name(name + " sink");
        env.execute(name + " IT");
    }

    /** id → count from the result of {@link #ID_COUNTS}. */
    static NavigableMap<Long, Long> idCounts(QueryResult result) {
        NavigableMap<Long, Long> counts = new TreeMap<>();
        for (List<Object> row : result.rows()) {
            counts.put(((Number) row.get(0)).longValue(), ((Number) row.get(1)).longValue());
        }
        return counts;
    }

    /** Every id in {@code [from, to)} once. */
    static Map<Long, Long> eachOnce(long from, long to) {
        Map<Long, Long> expected = new TreeMap<>();
        for (long id = from; id < to; id++) {
            expected.put(id, 1L);
        }
        return expected;
    }

    /** Every transaction {@link FaultyExactlyOnceSink} saw prepared, but at {@code checkpointId} (-1: all). */
    static List<CheckpointedTransaction> preparedExcept(long checkpointId) {
        List<CheckpointedTransaction> all = new ArrayList<>();
        FaultyExactlyOnceSink.PREPARED.forEach((id, txns) -> {
            if (id != checkpointId) {
                all.addAll(txns);
            }
        });
        return all;
    }
}
