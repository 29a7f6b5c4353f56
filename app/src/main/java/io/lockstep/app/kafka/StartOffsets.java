package io.lockstep.app.kafka;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;

/**
 * Where the Kafka source starts when the job has no checkpoint to restore: the given offset for each listed
 * partition of the topic, the earliest offset for every other partition (what the source does without
 * committed positions). The consumer group's committed offsets are never used: they are written at
 * checkpoints for monitoring and may be ahead of or behind what the target holds. A restored job resumes from
 * its checkpoint instead and never asks. Immutable and serializable (it travels with the job graph to the
 * source's split enumerator).
 */
public final class StartOffsets implements OffsetsInitializer {

    private static final long serialVersionUID = 1L;

    private final String topic;
    /** Partition to the first offset to read (TreeMap: serializable and printed in order). */
    private final TreeMap<Integer, Long> offsets;

    /**
     * @param topic the topic the offsets belong to
     * @param offsets partition to the first offset to read (&gt;= 0); may be empty
     */
    public StartOffsets(String topic, Map<Integer, Long> offsets) {
        this.topic = topic;
        this.offsets = new TreeMap<>(offsets);
    }

    /** @return {@code true} when no partition has a start of its own (everything starts at the earliest offset) */
    public boolean isEmpty() {
        return offsets.isEmpty();
    }

    /** @return partition to the first offset to read, in partition order */
    public Map<Integer, Long> offsets() {
        return new TreeMap<>(offsets);
    }

    /**
     * @param partitions the partitions the enumerator assigns
     * @param retriever reads the earliest offsets of the partitions without a start of their own
     * @return the first offset to read for each of {@code partitions}
     */
    @Override
    public Map<TopicPartition, Long> getPartitionOffsets(Collection<TopicPartition> partitions,
            PartitionOffsetsRetriever retriever) {
        Map<TopicPartition, Long> result = new HashMap<>();
        List<TopicPartition> others = new ArrayList<>();
        for (TopicPartition partition : partitions) {
            Long start = partition.topic().equals(topic) ? offsets.get(partition.partition()) : null;
            if (start != null) {
                result.put(partition, start);
            } else {
                others.add(partition);
            }
        }
        if (!others.isEmpty()) {
            result.putAll(retriever.beginningOffsets(others));
        }
        return result;
    }

    /** @return earliest: an offset that has fallen out of retention is read from the earliest one left */
    @Override
    @SuppressWarnings("deprecation")
    public OffsetResetStrategy getAutoOffsetResetStrategy() {
        return OffsetResetStrategy.EARLIEST;
    }

    @Override
    public String toString() {
        return "StartOffsets{" + topic + " " + offsets + ", other partitions earliest}";
    }
}
