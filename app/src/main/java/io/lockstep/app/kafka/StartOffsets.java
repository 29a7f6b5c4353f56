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
 * partition of each topic, the earliest offset for every other partition (what the source does without
 * committed positions). The consumer group's committed offsets are never used: they are written at
 * checkpoints for monitoring and may be ahead of or behind what the target holds. A restored job resumes from
 * its checkpoint instead and never asks. Holds one topic (the one-topic layout) or several (Debezium's
 * one-topic-per-table layout: the table topics and the transaction topic). Immutable and serializable (it travels
 * with the job graph to the source's split enumerator).
 */
public final class StartOffsets implements OffsetsInitializer {

    private static final long serialVersionUID = 1L;

    /** Topic to partition to the first offset to read (TreeMaps: serializable and printed in order). */
    private final TreeMap<String, TreeMap<Integer, Long>> byTopic = new TreeMap<>();

    /**
     * @param topic the topic the offsets belong to; {@code null} for none (then {@code offsets} must be empty)
     * @param offsets partition to the first offset to read (&gt;= 0); may be empty
     */
    public StartOffsets(String topic, Map<Integer, Long> offsets) {
        if (topic != null) {
            byTopic.put(topic, new TreeMap<>(offsets));
        } else if (!offsets.isEmpty()) {
            throw new IllegalArgumentException("start offsets " + offsets + " name no topic");
        }
    }

    /**
     * Several topics.
     *
     * @param byTopic topic to partition to the first offset to read (&gt;= 0); a topic may map to an empty map
     */
    public StartOffsets(Map<String, ? extends Map<Integer, Long>> byTopic) {
        byTopic.forEach((topic, offsets) -> this.byTopic.put(topic, new TreeMap<>(offsets)));
    }

    /** @return {@code true} when no partition has a start of its own (everything starts at the earliest offset) */
    public boolean isEmpty() {
        return byTopic.values().stream().allMatch(Map::isEmpty);
    }

    /**
     * @return partition to the first offset to read, in partition order, of the one topic (empty with none)
     * @throws IllegalStateException when this holds several topics ({@link #offsets(String)} names one)
     */
    public Map<Integer, Long> offsets() {
        if (byTopic.size() > 1) {
            throw new IllegalStateException("start offsets of several topics " + byTopic.keySet()
                    + ": ask per topic");
        }
        return byTopic.isEmpty() ? new TreeMap<>() : new TreeMap<>(byTopic.firstEntry().getValue());
    }

    /** @return partition to the first offset to read of {@code topic}, in partition order (empty when unknown) */
    public Map<Integer, Long> offsets(String topic) {
        TreeMap<Integer, Long> offsets = byTopic.get(topic);
        return offsets == null ? new TreeMap<>() : new TreeMap<>(offsets);
    }

    /** @return the topics this plans, in name order */
    public List<String> topics() {
        return new ArrayList<>(byTopic.keySet());
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
            TreeMap<Integer, Long> offsets = byTopic.get(partition.topic());
            Long start = offsets == null ? null : offsets.get(partition.partition());
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
        StringBuilder text = new StringBuilder("StartOffsets{");
        byTopic.forEach((topic, offsets) -> text.append(topic).append(' ').append(offsets).append(", "));
        return text.append("other partitions earliest}").toString();
    }
}
