package io.lockstep.app.job;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplitSerializer;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.memory.DataInputViewStreamWrapper;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.runtime.state.OperatorStateHandle;

/**
 * Whose a retained checkpoint or savepoint is, read from its {@code _metadata} before a job is submitted, so that
 * {@code lockstep run} can refuse another job's state in one line at once (the job itself checks again on restore,
 * {@link JobIdentityCheck}). Read are two operator states: the job identity {@link JobIdentityCheck} keeps, and, for
 * checkpoints written before it existed, the Kafka topics of the source's splits.
 *
 * <p>The layout read is Flink's: the metadata lists each operator's subtask states
 * ({@code Checkpoints.loadCheckpointMetadata}); an operator state handle maps each state name to the offsets of its
 * elements in the handle's stream, each element written by the state's serializer (apache/flink
 * {@code flink-runtime/src/main/java/org/apache/flink/runtime/state/OperatorStateRestoreOperation.java}). A source's
 * reader keeps its splits in the state {@value #SOURCE_SPLITS_STATE} as byte arrays, each a
 * {@link SimpleVersionedSerialization} of the split ({@code SourceOperator}); the Kafka split's first field is its
 * topic ({@link KafkaPartitionSplitSerializer}). Stateless.
 */
public final class CheckpointOwner {

    /** The source reader's split state in Flink's {@code SourceOperator}. */
    static final String SOURCE_SPLITS_STATE = "SourceReaderState";
    private static final String METADATA = "_metadata";

    private CheckpointOwner() {
    }

    /**
     * What a checkpoint says about the job that wrote it.
     *
     * @param identity the identity it keeps, empty for a checkpoint written before jobs kept one
     * @param kafkaTopics the topics of the Kafka source's splits (empty when none were assigned, or no Kafka source)
     */
    public record Owner(Optional<JobIdentity> identity, Set<String> kafkaTopics) {

        /**
         * @param current the job that would restore it
         * @return whether the checkpoint is {@code current}'s: its identity is {@code current}, or, without one,
         *     its Kafka splits are all of {@code current}'s topic (the state directory then says the rest)
         */
        public boolean belongsTo(JobIdentity current) {
            return identity.map(current::equals)
                    .orElse(!kafkaTopics.isEmpty() && kafkaTopics.equals(Set.of(current.source())));
        }

        /**
         * @param current the job that would restore it
         * @return whether the checkpoint reads {@code current}'s source: its identity's source is {@code current}'s,
         *     or, without one, its Kafka splits are all of {@code current}'s topic. Only then may
         *     {@code --adopt-state} take it over: the Kafka source resumes the topics its splits name.
         */
        public boolean sameSource(JobIdentity current) {
            return identity.map(owner -> owner.source().equals(current.source()))
                    .orElse(kafkaTopics.equals(Set.of(current.source())));
        }

        /** @return the source of the checkpoint as far as known, e.g. {@code topic 'lab.b'}, for the refusal line */
        public String describeSource() {
            return identity.map(owner -> JobIdentity.describeSource(owner.source()))
                    .orElse("topic '" + String.join("', '", kafkaTopics) + "'");
        }

        /** @return the job that wrote the checkpoint as far as known, for the refusal line */
        public String describe() {
            return identity.map(JobIdentity::describe).orElse("a job of topic '" + String.join("', '", kafkaTopics)
                    + "' (written before jobs kept their identity)");
        }
    }

    /**
     * @param checkpoint a {@code chk-<n>} or savepoint directory holding {@code _metadata}, or the metadata file
     * @return what it says about its job
     * @throws UncheckedIOException when the metadata or a state it references cannot be read
     */
    public static Owner read(Path checkpoint) {
        Path metadata = Files.isDirectory(checkpoint) ? checkpoint.resolve(METADATA) : checkpoint;
        Path directory = metadata.toAbsolutePath().getParent();
        CheckpointMetadata loaded;
        try (InputStream in = Files.newInputStream(metadata)) {
            loaded = Checkpoints.loadCheckpointMetadata(new DataInputStream(in),
                    CheckpointOwner.class.getClassLoader(), directory.toUri().toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the checkpoint metadata " + metadata + ": " + e.getMessage(), e);
        }
        Optional<JobIdentity> identity = Optional.empty();
        Set<String> topics = new TreeSet<>();
        try {
            for (OperatorState operator : loaded.getOperatorStates()) {
                for (OperatorSubtaskState subtask : operator.getStates()) {
                    for (OperatorStateHandle handle : subtask.getManagedOperatorState()) {
                        Map<String, OperatorStateHandle.StateMetaInfo> states = handle.getStateNameToPartitionOffsets();
                        if (states.containsKey(JobIdentityCheck.STATE_NAME)) {
                            for (long offset : states.get(JobIdentityCheck.STATE_NAME).getOffsets()) {
                                Optional<JobIdentity> decoded = JobIdentity.decode(readString(handle, offset));
                                identity = identity.isPresent() ? identity : decoded;
                            }
                        }
                        if (states.containsKey(SOURCE_SPLITS_STATE)) {
                            for (long offset : states.get(SOURCE_SPLITS_STATE).getOffsets()) {
                                kafkaTopic(handle, offset).ifPresent(topics::add);
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the operator state of checkpoint " + directory + ": "
                    + e.getMessage(), e);
        }
        return new Owner(identity, topics);
    }

    private static String readString(OperatorStateHandle handle, long offset) throws IOException {
        try (FSDataInputStream in = handle.openInputStream()) {
            in.seek(offset);
            return StringSerializer.INSTANCE.deserialize(new DataInputViewStreamWrapper(in));
        }
    }

    /** @return the topic of the Kafka split at {@code offset}, empty when the split is not a Kafka one */
    private static Optional<String> kafkaTopic(OperatorStateHandle handle, long offset) throws IOException {
        byte[] split;
        try (FSDataInputStream in = handle.openInputStream()) {
            in.seek(offset);
            split = BytePrimitiveArraySerializer.INSTANCE.deserialize(new DataInputViewStreamWrapper(in));
        }
        try {
            return Optional.of(SimpleVersionedSerialization.readVersionAndDeSerialize(
                    new KafkaPartitionSplitSerializer(), split).getTopic());
        } catch (IOException | RuntimeException notKafka) { // another source's split (e.g. a file's)
            return Optional.empty();
        }
    }
}
