package io.lockstep.bench;

import java.nio.file.Path;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironmentFactory;

/**
 * Makes {@code StreamExecutionEnvironment.getExecutionEnvironment(settings)} on the calling thread return a local
 * environment that keeps checkpoints in a directory ({@code state.checkpoint-storage: filesystem}) instead of the
 * JobManager's memory, with everything else as {@code settings} say; Flink's own way for a launcher to supply the
 * environment ({@code flink run} does the same).
 *
 * <p>Why: {@code lockstep run --bounded} keeps no state and so checkpoints into the JobManager's memory, whose
 * storage refuses a subtask's state above 5 MiB ({@code JobManagerCheckpointStorage}); the cross-topic rebuild's state
 * (events held for transactions whose other events are still coming) passes that at a few thousand source
 * transactions of backlog and the job fails at its next checkpoint. An unbounded run with a state directory keeps
 * checkpoints in files, as this does. Used by {@link TopicLayoutBenchmark} for both layouts alike.
 *
 * <p>Extends {@link StreamExecutionEnvironment} only to reach its protected static context methods; never
 * instantiated.
 */
final class FileCheckpointsContext extends StreamExecutionEnvironment {

    private FileCheckpointsContext() {
    }

    /**
     * @param directory where the checkpoints go (one sub-directory per job, Flink's layout)
     */
    static void install(Path directory) {
        initializeContextEnvironment(new StreamExecutionEnvironmentFactory() {
            @Override
            public StreamExecutionEnvironment createExecutionEnvironment(Configuration settings) {
                Configuration merged = new Configuration();
                merged.addAll(settings);
                merged.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
                merged.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, directory.toUri().toString());
                // a local environment refuses to be made while a context is installed: lift it for the moment
                resetContextEnvironment();
                try {
                    return StreamExecutionEnvironment.createLocalEnvironment(merged);
                } finally {
                    initializeContextEnvironment(this);
                }
            }
        });
    }

    /** Back to Flink's default environment. */
    static void uninstall() {
        resetContextEnvironment();
    }
}
