package io.lockstep.app.job;

import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a local {@code lockstep run} keeps its checkpoints and which one it restores, refusing another job's state
 * before the job is submitted ({@link CheckpointOwner}; the job checks again itself, {@link JobIdentityCheck}).
 *
 * <ul>
 *   <li>The state directory is {@code --state-dir}, else {@code lockstep-state/<job id>}: one per job, so two jobs
 *       started in one working directory never meet.</li>
 *   <li>{@code --from-savepoint P}: P is restored ({@code NO_CLAIM}) when it is this job's.</li>
 *   <li>Else the newest completed checkpoint in the state directory ({@code CLAIM}) when it is this job's.</li>
 *   <li>Else, with the default state directory, the newest checkpoint of this job under the directory of earlier
 *       versions, {@code lockstep-state/<group id>}, which every job of one consumer group shared: restored
 *       ({@code CLAIM}) with one INFO line, its successors written to the new directory; the checkpoints of other
 *       jobs there are left alone.</li>
 * </ul>
 * "This job's": the checkpoint's {@link JobIdentity} equals the job's, or, written before jobs kept one, its Kafka
 * splits are all of the job's topic. A checkpoint that says neither (no identity, no Kafka split) is restored and the
 * job adopts it ({@link JobIdentityCheck}). Another job's checkpoint is refused with
 * {@link JobStateMismatchException}, unless {@code adopt} ({@code --adopt-state}) and the checkpoint is of this
 * job's source (topic or input): {@code --adopt-state} never takes over another source's state, whose Kafka splits
 * the job would resume ({@link CheckpointOwner.Owner#sameSource}). Stateless.
 */
public final class StateRestore {
    private static final Logger LOG = LoggerFactory.getLogger(StateRestore.class);

    private StateRestore() {
    }

    /**
     * What a local run restores.
     *
     * @param directory where its checkpoints go
     * @param checkpoint the checkpoint or savepoint it restores, or empty for a start without state
     * @param claim whether the job owns {@code checkpoint} ({@link StateDirectory#configure})
     * @param legacy whether {@code checkpoint} was found under the directory of earlier versions
     */
    public record Plan(StateDirectory directory, Optional<Path> checkpoint, boolean claim, boolean legacy) {
    }

    /**
     * @param stateDir {@code --state-dir}, or {@code null} for the default {@code lockstep-state/<job id>}
     * @param savepoint {@code --from-savepoint}, or {@code null}
     * @param groupId the consumer group (names the directory of earlier versions)
     * @param identity this job's identity
     * @param adopt whether another job's state may be taken over ({@code --adopt-state})
     * @return what to restore
     * @throws JobStateMismatchException when the state to restore is another job's, naming both
     * @throws IllegalArgumentException when {@code savepoint} is not a savepoint or checkpoint
     */
    public static Plan plan(Path stateDir, Path savepoint, String groupId, JobIdentity identity, boolean adopt) {
        StateDirectory directory = new StateDirectory(stateDir != null ? stateDir
                : Path.of(StateDirectory.DEFAULT, identity.jobId()));
        if (savepoint != null) {
            Path given = StateDirectory.savepoint(savepoint);
            refuseOthers(given, "--from-savepoint " + given, identity, adopt);
            return new Plan(directory, Optional.of(given), false, false);
        }
        Optional<Path> latest = directory.latestCheckpoint();
        if (latest.isPresent()) {
            refuseOthers(latest.get(), "checkpoint " + latest.get(), identity, adopt);
            return new Plan(directory, latest, true, false);
        }
        StateDirectory legacy = new StateDirectory(Path.of(StateDirectory.DEFAULT, groupId));
        if (stateDir != null || legacy.root().equals(directory.root())) {
            return new Plan(directory, Optional.empty(), true, false);
        }
        for (Path checkpoint : legacy.checkpointsNewestFirst()) {
            if (owner(checkpoint).map(owner -> owner.belongsTo(identity)).orElse(false)) {
                LOG.info("lockstep run: restoring this {}'s checkpoint {} from {} (the state directory of earlier "
                        + "versions, shared by the jobs of group '{}'); its next checkpoints go to {}",
                        identity.describe(), checkpoint, legacy.root(), groupId, directory.root());
                return new Plan(directory, Optional.of(checkpoint), true, true);
            }
        }
        return new Plan(directory, Optional.empty(), true, false);
    }

    private static void refuseOthers(Path checkpoint, String where, JobIdentity identity, boolean adopt) {
        Optional<CheckpointOwner.Owner> owner = owner(checkpoint);
        if (owner.isEmpty() || owner.get().belongsTo(identity)
                || owner.get().identity().isEmpty() && owner.get().kafkaTopics().isEmpty()) {
            return; // this job's, or nothing tells whose: the job adopts it when it restores (JobIdentityCheck)
        }
        String other = owner.get().describe();
        boolean sameSource = owner.get().sameSource(identity);
        if (!adopt) {
            throw new JobStateMismatchException(other, identity, where, sameSource);
        }
        if (!sameSource) {
            throw JobStateMismatchException.otherSource(other, owner.get().describeSource(), identity, where);
        }
        LOG.warn("lockstep run: adopting {}, which belongs to {}, as this {} (--adopt-state)", where, other,
                identity.describe());
    }

    /** @return whose {@code checkpoint} is, or empty (with a WARN) when its metadata cannot be read */
    private static Optional<CheckpointOwner.Owner> owner(Path checkpoint) {
        try {
            return Optional.of(CheckpointOwner.read(checkpoint));
        } catch (RuntimeException e) { // UncheckedIOException, or a layout this Flink cannot read
            LOG.warn("lockstep run: cannot tell whose checkpoint {} is ({}); the job checks it when it restores",
                    checkpoint, e.getMessage());
            return Optional.empty();
        }
    }
}
