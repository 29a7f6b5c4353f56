package io.lockstep.app.job;

import io.lockstep.app.event.SourceRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline step right after the source that keeps the job's {@link JobIdentity} in its operator state and checks
 * it on every restore, however the restore was asked for ({@code --state-dir}, {@code --from-savepoint},
 * {@code flink run -s}). Records pass unchanged.
 *
 * <p>State: one union list state named {@value #STATE_NAME} of encoded identities (every subtask writes its own copy,
 * so after a rescale each subtask gets them all). On restore:
 * <ul>
 *   <li>every copy equal to this job's identity: nothing to say;</li>
 *   <li>no copy (a checkpoint written before the job kept its identity, or by a job without this step): the current
 *       identity is adopted, with one INFO line (subtask 0);</li>
 *   <li>a copy of another identity: {@link JobStateMismatchException}, which fails the job once without restarts,
 *       unless {@code adopt} is set ({@code --adopt-state}) and the other identity has the same source (topic or
 *       {@code file:NAME}), then one WARN line (subtask 0) and the state is taken over under the current identity.
 *       Another source is refused even with {@code adopt}: the Kafka source restores its splits, hence the topics,
 *       from the state, so the job would read the other job's topic under its own id
 *       ({@link JobStateMismatchException#otherSource}).</li>
 * </ul>
 * Adding this step to a job kept old checkpoints restorable: its uid ({@link LockstepPipeline#JOB_IDENTITY_UID}) is
 * new, and Flink restores an operator without state from a checkpoint that lacks it.
 *
 * <p>Threads: Flink calls {@link #initializeState}, {@link #snapshotState} and {@link #map} on the subtask's task
 * thread only; {@link #state} is confined to it.
 */
public final class JobIdentityCheck extends RichMapFunction<SourceRecord, SourceRecord>
        implements CheckpointedFunction {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(JobIdentityCheck.class);
    /** Name of the operator state; {@link CheckpointOwner} reads it back from a checkpoint's metadata. */
    public static final String STATE_NAME = "lockstep-job-identity";
    private static final String WHERE = "the restored checkpoint or savepoint";

    private final JobIdentity identity;
    private final boolean adopt;
    /** Confined to the task thread. */
    private transient ListState<String> state;

    /**
     * @param identity this job's identity
     * @param adopt whether restoring another job's state is wanted ({@code --adopt-state})
     */
    public JobIdentityCheck(JobIdentity identity, boolean adopt) {
        this.identity = Objects.requireNonNull(identity, "identity");
        this.adopt = adopt;
    }

    /** @return the state's descriptor (strings, Flink's {@link StringSerializer}) */
    static ListStateDescriptor<String> descriptor() {
        return new ListStateDescriptor<>(STATE_NAME, StringSerializer.INSTANCE);
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        state = context.getOperatorStateStore().getUnionListState(descriptor());
        if (!context.isRestored()) {
            return;
        }
        List<String> restored = new ArrayList<>();
        state.get().forEach(restored::add);
        boolean first = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0;
        Optional<String> otherEncoded = restored.stream()
                .filter(encoded -> !encoded.equals(identity.encode()))
                .findFirst();
        Optional<JobIdentity> otherIdentity = otherEncoded.flatMap(JobIdentity::decode);
        Optional<String> other = otherEncoded.map(encoded -> otherIdentity.map(JobIdentity::describe)
                .orElse("a job of an identity this version cannot read ('" + encoded + "')"));
        if (other.isPresent()) {
            boolean sameSource = otherIdentity.map(o -> o.source().equals(identity.source())).orElse(false);
            if (!adopt) {
                throw new JobStateMismatchException(other.get(), identity, WHERE, sameSource);
            }
            if (!sameSource) {
                throw JobStateMismatchException.otherSource(other.get(),
                        otherIdentity.map(o -> JobIdentity.describeSource(o.source()))
                                .orElse("a source this version cannot read"), identity, WHERE);
            }
            if (first) {
                LOG.warn("lockstep: adopting the restored state of {} as this {} (--adopt-state)", other.get(),
                        identity.describe());
            }
        } else if (restored.isEmpty() && first) {
            LOG.info("lockstep: the restored checkpoint or savepoint holds no job identity (written before jobs kept "
                    + "one); adopting this {}", identity.describe());
        }
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        state.update(List.of(identity.encode()));
    }

    @Override
    public SourceRecord map(SourceRecord record) {
        return record;
    }
}
