package io.lockstep.app.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.event.SourceRecord;
import io.lockstep.flink.sink.NonRecoverableSinkFailure;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.StreamMap;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * {@link JobIdentityCheck} in Flink's operator harness: its identity survives a snapshot, another job's is refused
 * with a failure no restart retries, {@code --adopt-state} takes it over, and state without an identity (a checkpoint
 * of an earlier version) is adopted. Also the identity's encoding and the pre-submit ownership rule of
 * {@link CheckpointOwner.Owner}.
 */
class JobIdentityCheckTest {
    private static final JobIdentity A = new JobIdentity("starrocks", "lab", "lab.cdc", "debezium", "lockstep-lab_cdc");
    private static final JobIdentity B = new JobIdentity("starrocks", "lab", "bad.unknowntable", "debezium",
            "lockstep-bad_unknowntable");
    /** {@link #A} under another job id: same topic, so {@code --adopt-state} may take A's state over. */
    private static final JobIdentity A_RENAMED = new JobIdentity("starrocks", "lab", "lab.cdc", "debezium", "xadopt");

    @Test
    void theOwnIdentityRestoresAndRecordsPassUnchanged() throws Exception {
        OperatorSubtaskState snapshot = snapshotOf(A);
        try (var harness = harness(A, false, snapshot)) {
            SourceRecord record = new SourceRecord("lab.cdc", 0, 7, null, "{}");
            harness.processElement(new StreamRecord<>(record));
            assertThat(harness.extractOutputValues()).containsExactly(record);
        }
    }

    @Test
    void anotherJobsStateFailsOnceNamingBothJobs() throws Exception {
        OperatorSubtaskState snapshot = snapshotOf(A);

        assertThatThrownBy(() -> harness(B, false, snapshot))
                .isInstanceOf(JobStateMismatchException.class)
                .hasMessage("the restored checkpoint or savepoint belongs to job 'lockstep-lab_cdc' (debezium from "
                        + "topic 'lab.cdc' into starrocks database 'lab'), not to this job 'lockstep-bad_unknowntable' "
                        + "(debezium from topic 'bad.unknowntable' into starrocks database 'lab'): refusing to restore "
                        + "another job's state (give this job its own --state-dir or savepoint; --adopt-state takes "
                        + "over only a state of the same topic or input)")
                .satisfies(e -> assertThat(NonRecoverableSinkFailure.canNeverHeal(e)).as("no restarts").isTrue())
                .satisfies(e -> assertThat(JobFailures.describe(new RuntimeException("wrapped", e)))
                        .startsWith("JobStateMismatchException: the restored checkpoint"));
    }

    @Test
    void adoptStateTakesOverTheStateOfTheSameTopicUnderTheCurrentIdentity() throws Exception {
        OperatorSubtaskState snapshot = snapshotOf(A);
        OperatorSubtaskState adopted;
        try (var harness = harness(A_RENAMED, true, snapshot)) {
            adopted = harness.snapshot(2, 2);
        }
        try (var again = harness(A_RENAMED, false, adopted)) {
            assertThat(again.extractOutputValues()).isEmpty(); // restored without a refusal: now A_RENAMED's
        }
        assertThatThrownBy(() -> harness(A, false, adopted)).as("no longer the old job's")
                .isInstanceOf(JobStateMismatchException.class);
    }

    @Test
    void adoptStateRefusesTheStateOfAnotherTopicNamingBoth() throws Exception {
        OperatorSubtaskState snapshot = snapshotOf(A);

        assertThatThrownBy(() -> harness(B, true, snapshot))
                .isInstanceOf(JobStateMismatchException.class)
                .hasMessage("the restored checkpoint or savepoint belongs to job 'lockstep-lab_cdc' (debezium from "
                        + "topic 'lab.cdc' into starrocks database 'lab'), which reads topic 'lab.cdc', not this job "
                        + "'lockstep-bad_unknowntable' (debezium from topic 'bad.unknowntable' into starrocks database "
                        + "'lab')'s topic 'bad.unknowntable': refusing --adopt-state, which takes over another job's "
                        + "state only for the same source, because Flink's Kafka source resumes the topics and offsets "
                        + "kept in its state whatever --topic says (a new topic or input needs a fresh --state-dir and "
                        + "no --from-savepoint; the progress table keeps the old job's positions under its own job id)")
                .satisfies(e -> assertThat(NonRecoverableSinkFailure.canNeverHeal(e)).as("no restarts").isTrue());
        JobIdentity otherFile = new JobIdentity("starrocks", "lab", "file:b.jsonl", "debezium", "lockstep-lab_cdc");
        assertThatThrownBy(() -> harness(otherFile, true, snapshotOf(
                new JobIdentity("starrocks", "lab", "file:a.jsonl", "debezium", "lockstep-lab_cdc"))))
                .isInstanceOf(JobStateMismatchException.class)
                .hasMessageContaining("which reads file 'a.jsonl', not this")
                .hasMessageContaining("'s file 'b.jsonl': refusing --adopt-state");
    }

    @Test
    void aOneTopicJobsStateAndAMultiTopicJobsStateNeverRestoreIntoEachOtherEvenWithAdoptState() throws Exception {
        JobIdentity oneTopic = new JobIdentity("starrocks", "lab", "pg.transaction", "debezium", "j");
        JobIdentity multiTopic = new JobIdentity("starrocks", "lab", "layout:pg.transaction|topics:pg.public.a",
                "debezium", "j");

        assertThatThrownBy(() -> harness(multiTopic, true, snapshotOf(oneTopic)))
                .isInstanceOf(JobStateMismatchException.class)
                .hasMessage("the restored checkpoint or savepoint belongs to job 'j' (debezium from topic "
                        + "'pg.transaction' into starrocks database 'lab'), which reads topic 'pg.transaction', not "
                        + "this job 'j' (debezium from transaction topic 'pg.transaction' with table topics "
                        + "'pg.public.a' into starrocks database 'lab')'s transaction topic 'pg.transaction' with table "
                        + "topics 'pg.public.a': refusing --adopt-state, which takes over another job's state only for "
                        + "the same source, because Flink's Kafka source resumes the topics and offsets kept in its "
                        + "state whatever --topic says (a new topic or input needs a fresh --state-dir and no "
                        + "--from-savepoint; the progress table keeps the old job's positions under its own job id)");
        assertThatThrownBy(() -> harness(oneTopic, false, snapshotOf(multiTopic)))
                .isInstanceOf(JobStateMismatchException.class)
                .hasMessageContaining("belongs to job 'j' (debezium from transaction topic 'pg.transaction' with table "
                        + "topics 'pg.public.a' into starrocks database 'lab'), not to this job 'j' (debezium from "
                        + "topic 'pg.transaction'");
    }

    @Test
    void withoutAdoptStateAChangeOfAnyIdentityFieldIsRefused() throws Exception {
        OperatorSubtaskState snapshot = snapshotOf(A);
        for (JobIdentity changed : List.of(
                new JobIdentity("doris", "lab", "lab.cdc", "debezium", "lockstep-lab_cdc"),
                new JobIdentity("starrocks", "lab2", "lab.cdc", "debezium", "lockstep-lab_cdc"),
                new JobIdentity("starrocks", "lab", "lab.other", "debezium", "lockstep-lab_cdc"),
                new JobIdentity("starrocks", "lab", "lab.cdc", "maxwell", "lockstep-lab_cdc"),
                A_RENAMED)) {
            boolean sameTopic = changed.source().equals(A.source());
            assertThatThrownBy(() -> harness(changed, false, snapshot)).as(changed.describe())
                    .isInstanceOf(JobStateMismatchException.class)
                    .hasMessageEndingWith(sameTopic ? "or pass --adopt-state to take it over on purpose)"
                            : "--adopt-state takes over only a state of the same topic or input)");
        }
    }

    @Test
    void stateWithoutAnIdentityIsAdoptedAndKeepsItFromThenOn() throws Exception {
        OperatorSubtaskState empty;
        try (var other = new OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord>(
                new StreamMap<>(record -> record))) { // an operator of an earlier version: no identity state
            other.open();
            empty = other.snapshot(1, 1);
        }
        OperatorSubtaskState adopted;
        try (var harness = harness(A, false, empty)) {
            adopted = harness.snapshot(2, 2);
        }
        assertThatThrownBy(() -> harness(B, false, adopted)).isInstanceOf(JobStateMismatchException.class);
    }

    @Test
    void theIdentityEncodesAndDecodes() {
        assertThat(JobIdentity.decode(A.encode())).contains(A);
        assertThat(JobIdentity.decode("v9\tx")).isEmpty();
        assertThat(new JobIdentity("doris", "shop", "file:a.jsonl", "maxwell", "lockstep-file_a_jsonl").describe())
                .isEqualTo("job 'lockstep-file_a_jsonl' (maxwell from file 'a.jsonl' into doris database 'shop')");
    }

    @Test
    void aCheckpointWithoutIdentityIsTheJobsWhenItsKafkaSplitsAreAllOfTheJobsTopic() {
        assertThat(new CheckpointOwner.Owner(Optional.of(A), Set.of("lab.cdc")).belongsTo(A)).isTrue();
        assertThat(new CheckpointOwner.Owner(Optional.of(A), Set.of("lab.cdc")).belongsTo(B)).isFalse();
        assertThat(new CheckpointOwner.Owner(Optional.empty(), Set.of("lab.cdc")).belongsTo(A)).isTrue();
        assertThat(new CheckpointOwner.Owner(Optional.empty(), Set.of("lab.cdc")).belongsTo(B)).isFalse();
        assertThat(new CheckpointOwner.Owner(Optional.empty(), Set.of("lab.cdc", "x")).belongsTo(A)).isFalse();
        assertThat(new CheckpointOwner.Owner(Optional.empty(), Set.of()).belongsTo(A)).as("nothing tells").isFalse();
        assertThat(new CheckpointOwner.Owner(Optional.empty(), Set.of("lab.cdc")).describe())
                .isEqualTo("a job of topic 'lab.cdc' (written before jobs kept their identity)");
        assertThat(new CheckpointOwner.Owner(Optional.of(A), Set.of("lab.cdc")).describe()).isEqualTo(A.describe());
    }

    @Test
    void aCheckpointIsOfTheSameSourceWhenItsIdentitysOrElseAllItsKafkaSplitsTopicIsTheJobs() {
        assertThat(new CheckpointOwner.Owner(Optional.of(A), Set.of("lab.cdc")).sameSource(A_RENAMED)).isTrue();
        assertThat(new CheckpointOwner.Owner(Optional.of(A), Set.of("lab.cdc")).sameSource(B)).isFalse();
        assertThat(new CheckpointOwner.Owner(Optional.empty(), Set.of("lab.cdc")).sameSource(A_RENAMED)).isTrue();
        assertThat(new CheckpointOwner.Owner(Optional.empty(), Set.of("lab.cdc", "x")).sameSource(A)).isFalse();
        assertThat(new CheckpointOwner.Owner(Optional.empty(), new TreeSet<>(Set.of("x", "lab.cdc"))).describeSource())
                .isEqualTo("topic 'lab.cdc', 'x'");
        assertThat(new CheckpointOwner.Owner(Optional.of(A), Set.of("lab.cdc")).describeSource())
                .isEqualTo("topic 'lab.cdc'");
    }

    private static OperatorSubtaskState snapshotOf(JobIdentity identity) throws Exception {
        try (var harness = harness(identity, false, null)) {
            return harness.snapshot(1, 1);
        }
    }

    private static OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> harness(JobIdentity identity,
            boolean adopt, OperatorSubtaskState restored) throws Exception {
        var harness = new OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord>(
                new StreamMap<>(new JobIdentityCheck(identity, adopt)));
        if (restored != null) {
            harness.initializeState(restored);
        }
        harness.open();
        return harness;
    }
}
