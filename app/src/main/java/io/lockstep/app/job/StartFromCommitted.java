package io.lockstep.app.job;

import io.lockstep.app.kafka.CommittedStartOffsets;
import io.lockstep.app.rebuild.TopicLayout;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.progress.CommittedPositions;
import io.lockstep.core.progress.ProgressStore;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.core.progress.ProgressTableException;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.sink.SinkSettings;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Plans the start of an exactly-once multi-table job ({@link ExactlyOnceAcrossTables}) from what its earlier runs
 * committed: reads the progress table in the job's database once (StarRocks HTTP SQL API, with the sink's own address
 * and user), hands the committed Kafka positions to {@link CommittedStartOffsets} (where to resume reading) and keeps
 * the committed source commit positions ({@code #commit:} rows, docs/exactly-once.md#progress-table-rows) for the
 * transaction assembler (which transactions were already loaded). In Debezium's one-topic-per-table layout
 * ({@link TopicLayout}) it plans every topic the job reads and the rebuilt source's committed position
 * ({@link Start#rebuiltPosition()}, docs/exactly-once.md#progress-rows-of-the-multi-topic-layout). Stateless.
 */
public final class StartFromCommitted {

    private StartFromCommitted() {
    }

    /**
     * What the job starts from.
     *
     * @param offsets where each Kafka partition starts, and the source name the rows carry
     * @param commitPositions source partition to commit source to the committed commit position text (empty with none
     *     or with a legacy progress table)
     * @param upgradeSql the statement that adds the {@code commit_position} column when the progress table is a
     *     legacy one without it, else null
     */
    public record Start(CommittedStartOffsets.Plan offsets, Map<Integer, Map<String, String>> commitPositions,
                        String upgradeSql) {
        /** @return true when the progress table keeps source commit positions */
        public boolean keepsCommitPositions() {
            return upgradeSql == null;
        }

        /**
         * @return the committed position of the rebuilt source ({@code <txTopic>+rebuilt}, partition 0) in the
         *     one-topic-per-table layout, for {@link TopicLayout#withCommittedRebuiltPosition}; -1 for none and in
         *     the one-topic layout
         */
        public long rebuiltPosition() {
            return offsets.rebuiltPosition();
        }
    }

    /**
     * @param config an {@link ExactlyOnceAcrossTables#enabled} job
     * @param kafkaTimeoutMs how long to wait for the Kafka brokers, ms (&gt; 0)
     * @return where each partition starts, the source name the rows carry, and the committed commit positions
     * @throws IllegalStateException with one line naming what is wrong: the progress table cannot be read, the
     *     topic changed identity, a committed position the topic cannot deliver
     * @throws InterruptedException if interrupted while waiting
     */
    public static Start plan(PipelineConfig config, long kafkaTimeoutMs) throws InterruptedException {
        return plan(config, null, kafkaTimeoutMs);
    }

    /**
     * As {@link #plan(PipelineConfig, long)}, for the topics of {@code layout}: Kafka start offsets per partition of
     * every table topic and of the transaction topic (identity and range checks per topic), the committed commit
     * positions, and the committed rebuilt position ({@link Start#rebuiltPosition()}); the rebuilt source is never
     * looked up as a Kafka topic.
     *
     * @param layout the one-topic-per-table layout the job reads, or null for the one topic of {@code config}
     */
    public static Start plan(PipelineConfig config, TopicLayout layout, long kafkaTimeoutMs)
            throws InterruptedException {
        String jobId = ExactlyOnceAcrossTables.jobId(config);
        SinkConfig options = LockstepPipeline.sinkOptions(config);
        ProgressTable table = new ProgressTable(config.database(), options.getMultiTableProgressTable());
        AtomicReference<CommittedPositions> read = new AtomicReference<>();
        Function<String, Map<String, Map<Integer, Long>>> reader = id -> {
            CommittedPositions positions = read(config, options, table, id);
            read.set(positions);
            return positions.bySource();
        };
        CommittedStartOffsets.Plan offsets = layout == null
                ? CommittedStartOffsets.read(config.kafkaBootstrap(), config.topic(), config.kafkaProperties(),
                        kafkaTimeoutMs, jobId, reader)
                : CommittedStartOffsets.read(config.kafkaBootstrap(), layout, config.kafkaProperties(),
                        kafkaTimeoutMs, jobId, reader);
        CommittedPositions positions = read.get();
        boolean keeps = positions.tableShape().hasCommitPositions();
        return new Start(offsets, positions.commitsByPartition(), keeps ? null : table.addCommitPositionColumnSql());
    }

    private static CommittedPositions read(PipelineConfig config, SinkConfig options, ProgressTable table,
            String jobId) {
        try {
            return ProgressStore.readCommittedPositions(SinkSettings.from(options).clientConfig(), table, jobId);
        } catch (ProgressTableException e) {
            throw new IllegalStateException(e.getMessage(), e);
        } catch (TransactionException e) {
            throw new IllegalStateException("cannot read the committed positions of job '" + jobId + "' from "
                    + table.qualifiedName() + " at " + config.loadUrl() + ": " + e.getMessage(), e);
        }
    }
}
