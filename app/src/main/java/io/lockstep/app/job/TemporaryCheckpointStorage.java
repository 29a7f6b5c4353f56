package io.lockstep.app.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.util.FileUtils;

/**
 * Checkpoint storage for a local run that keeps no state (a bounded run, a file without {@code --state-dir}): the
 * checkpoints still happen (the sink commits at each one, and the assemblers' and the rebuild's state is part of
 * them), but Flink's default storage for a job without a directory keeps them in the JobManager's memory, which
 * refuses a subtask's state over 5 MiB ({@code JobManagerCheckpointStorage}'s default maximum) and so fails a run
 * whose open or held transactions are larger. They go to a temporary directory instead, deleted when the JVM exits.
 */
public final class TemporaryCheckpointStorage {

    private TemporaryCheckpointStorage() {
    }

    /**
     * Sets file checkpoint storage in a new temporary directory ({@code lockstep-checkpoints-*} under
     * {@code java.io.tmpdir}), deleted with its contents at JVM exit.
     *
     * @param settings the job's configuration
     * @return the directory
     * @throws UncheckedIOException if the directory cannot be created
     */
    public static Path configure(Configuration settings) {
        Path directory;
        try {
            directory = Files.createTempDirectory("lockstep-checkpoints-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary checkpoint directory in "
                    + System.getProperty("java.io.tmpdir") + ": " + e.getMessage(), e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> FileUtils.deleteDirectoryQuietly(directory.toFile()),
                "lockstep-checkpoints-cleanup"));
        settings.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        settings.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, directory.toUri().toString());
        return directory;
    }
}
