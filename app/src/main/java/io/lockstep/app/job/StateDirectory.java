package io.lockstep.app.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.StateRecoveryOptions;

/**
 * Where {@code lockstep run} keeps its checkpoints so that a new process continues where the last one stopped
 * (killed, Ctrl-C, failed): Flink's filesystem checkpoint storage in this directory, checkpoints retained when
 * the job is cancelled or fails ({@code execution.checkpointing.externalized-checkpoint-retention:
 * RETAIN_ON_CANCELLATION}), and at start the newest completed checkpoint found here is restored.
 *
 * <p>Layout (Flink's): {@code <dir>/<job id>/chk-<n>/_metadata} marks a completed checkpoint; a {@code chk-<n>}
 * without {@code _metadata} was still being written when the process stopped and is ignored. A retained
 * checkpoint is restored in {@link RestoreMode#CLAIM} mode: the new job owns it and deletes it once one of its
 * own checkpoints subsumes it, so the directory holds about one checkpoint however often the job restarts. A
 * savepoint given explicitly ({@code --from-savepoint}) is restored in {@link RestoreMode#NO_CLAIM} mode and
 * never deleted. Which checkpoint a job restores, and whether it is the job's own, is {@link StateRestore}'s.
 */
public final class StateDirectory {

    /** Default, relative to the working directory. */
    public static final String DEFAULT = "lockstep-state";
    private static final String METADATA = "_metadata";
    /**
     * {@code execution.state-recovery.claim-mode} by its key: its enum type differs between the Flink lines
     * ({@code RestoreMode} in 1.20, {@code RecoveryClaimMode} in 2.x) while the key and values are the same.
     */
    private static final ConfigOption<String> CLAIM_MODE =
            ConfigOptions.key("execution.state-recovery.claim-mode").stringType().noDefaultValue();

    private final Path root;

    /** @param root the state directory; created when missing */
    public StateDirectory(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** @return the directory, absolute */
    public Path root() {
        return root;
    }

    /**
     * @return the newest completed checkpoint directory ({@code chk-<n>} holding {@code _metadata}) under any job
     *     directory, by the time its metadata was written; empty when there is none (a first start)
     * @throws UncheckedIOException when the directory cannot be listed
     */
    public Optional<Path> latestCheckpoint() {
        return checkpointsNewestFirst().stream().findFirst();
    }

    /**
     * @return every completed checkpoint directory under any job directory, newest first (by the time its metadata
     *     was written); empty when there is none
     * @throws UncheckedIOException when the directory cannot be listed
     */
    public List<Path> checkpointsNewestFirst() {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> jobs = Files.list(root)) {
            return jobs.filter(Files::isDirectory)
                    .flatMap(StateDirectory::completedCheckpoints)
                    .sorted(Comparator.comparing(StateDirectory::metadataTime).reversed())
                    .map(Path::toAbsolutePath)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the state directory " + root, e);
        }
    }

    /**
     * @param savepoint {@code --from-savepoint}: a savepoint or retained checkpoint directory, or its
     *     {@code _metadata} file
     * @return it, absolute
     * @throws IllegalArgumentException when it is neither a directory holding {@code _metadata} nor a file
     */
    public static Path savepoint(Path savepoint) {
        Path given = savepoint.toAbsolutePath().normalize();
        if (!Files.isRegularFile(given.resolve(METADATA)) && !Files.isRegularFile(given)) {
            throw new IllegalArgumentException("--from-savepoint " + savepoint
                    + ": not a savepoint or checkpoint directory (no " + METADATA + " in it)");
        }
        return given;
    }

    /**
     * Sets the checkpoint storage (this directory) and retention, and what to restore.
     *
     * @param settings the job's configuration
     * @param restore the checkpoint or savepoint to restore, or empty for a start without state (the sources start
     *     from their initial positions)
     * @param claim {@code true} for a retained checkpoint the job then owns ({@code CLAIM}: deleted once one of its
     *     own checkpoints subsumes it), {@code false} for a savepoint given explicitly ({@code NO_CLAIM}, never
     *     deleted)
     */
    public void configure(Configuration settings, Optional<Path> restore, boolean claim) {
        settings.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        settings.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, root.toUri().toString());
        settings.set(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        settings.set(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS, 1);
        settings.set(CLAIM_MODE, claim ? "CLAIM" : "NO_CLAIM");
        restore.ifPresent(path -> settings.set(StateRecoveryOptions.SAVEPOINT_PATH, path.toUri().toString()));
    }

    private static Stream<Path> completedCheckpoints(Path jobDirectory) {
        try (Stream<Path> entries = Files.list(jobDirectory)) {
            List<Path> checkpoints = entries
                    .filter(p -> p.getFileName().toString().startsWith("chk-"))
                    .filter(p -> Files.isRegularFile(p.resolve(METADATA)))
                    .toList();
            return checkpoints.stream();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + jobDirectory, e);
        }
    }

    private static FileTime metadataTime(Path checkpoint) {
        try {
            return Files.getLastModifiedTime(checkpoint.resolve(METADATA));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + checkpoint.resolve(METADATA), e);
        }
    }
}
