package io.lockstep.app.job;

import io.lockstep.app.kafka.CommittedStartOffsets;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.progress.ProgressStore;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.core.progress.ProgressTableException;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.sink.SinkSettings;
import java.util.Map;
import java.util.function.Function;

/**
 * Plans the Kafka source's start of an exactly-once multi-table job ({@link ExactlyOnceAcrossTables}) from the
 * positions its earlier runs committed: reads them from the progress table in the job's database (StarRocks HTTP
 * SQL API, with the sink's own address and user) and hands them to {@link CommittedStartOffsets}. Stateless.
 */
public final class StartFromCommitted {

    private StartFromCommitted() {
    }

    /**
     * @param config an {@link ExactlyOnceAcrossTables#enabled} job
     * @param kafkaTimeoutMs how long to wait for the Kafka brokers, ms (&gt; 0)
     * @return where each partition starts, and the source name the rows carry
     * @throws IllegalStateException with one line naming what is wrong: the progress table cannot be read, the
     *     topic changed identity, a committed position the topic cannot deliver
     * @throws InterruptedException if interrupted while waiting
     */
    public static CommittedStartOffsets.Plan plan(PipelineConfig config, long kafkaTimeoutMs)
            throws InterruptedException {
        String jobId = ExactlyOnceAcrossTables.jobId(config);
        return CommittedStartOffsets.read(config.kafkaBootstrap(), config.topic(), config.kafkaProperties(),
                kafkaTimeoutMs, jobId, reader(config));
    }

    /**
     * @return a reader of the job's committed positions through the sink's own settings (FE addresses, user,
     *     password, the progress table in {@link PipelineConfig#database()}): {@link ProgressStore}
     */
    private static Function<String, Map<String, Map<Integer, Long>>> reader(PipelineConfig config) {
        SinkConfig options = LockstepPipeline.sinkOptions(config);
        ProgressTable table = new ProgressTable(config.database(), options.getMultiTableProgressTable());
        return jobId -> {
            try {
                return ProgressStore.readCommittedPositions(SinkSettings.from(options).clientConfig(), table, jobId)
                        .bySource();
            } catch (ProgressTableException e) {
                throw new IllegalStateException(e.getMessage(), e);
            } catch (TransactionException e) {
                throw new IllegalStateException("cannot read the committed positions of job '" + jobId + "' from "
                        + table.qualifiedName() + " at " + config.loadUrl() + ": " + e.getMessage(), e);
            }
        };
    }
}
