package io.lockstep.core.progress;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The committed source positions of one job: per (source, source partition), the highest position whose source
 * transaction a commit made visible. Immutable and thread-safe.
 */
public final class CommittedPositions {
    private static final CommittedPositions NONE = new CommittedPositions(Map.of());

    private final Map<SourcePartition, Long> positions;

    /** @param positions position by source partition (copied) */
    public CommittedPositions(Map<SourcePartition, Long> positions) {
        this.positions = Map.copyOf(positions);
    }

    /** No committed position (a job's first start). */
    public static CommittedPositions none() {
        return NONE;
    }

    /** The committed position of {@code partition}, if any. */
    public OptionalLong of(SourcePartition partition) {
        Long position = positions.get(partition);
        return position == null ? OptionalLong.empty() : OptionalLong.of(position);
    }

    /** Every committed position, by source partition. */
    public Map<SourcePartition, Long> asMap() {
        return positions;
    }

    /**
     * The positions grouped by source: source → partition → position (sorted), e.g. to start a Kafka source at
     * {@code position + 1} per partition.
     */
    public Map<String, Map<Integer, Long>> bySource() {
        Map<String, Map<Integer, Long>> result = new TreeMap<>();
        positions.forEach((p, position) -> result.computeIfAbsent(p.source(), s -> new TreeMap<>())
                .put(p.partition(), position));
        Map<String, Map<Integer, Long>> frozen = new HashMap<>();
        result.forEach((source, byPartition) -> frozen.put(source, Collections.unmodifiableMap(byPartition)));
        return Collections.unmodifiableMap(new TreeMap<>(frozen));
    }

    /** True when no position is committed. */
    public boolean isEmpty() {
        return positions.isEmpty();
    }

    @Override
    public String toString() {
        return new TreeMap<>(bySource()).toString();
    }
}
