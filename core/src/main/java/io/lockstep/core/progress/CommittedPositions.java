package io.lockstep.core.progress;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The committed source positions of one job: per (source, source partition), the highest position whose source
 * transaction a commit made visible; per (commit source, source partition), the commit position text of the last
 * source transaction committed with one ({@link #commits()}); and the shape of the table they were read from.
 * Immutable and thread-safe.
 */
public final class CommittedPositions {
    private static final CommittedPositions NONE = new CommittedPositions(Map.of());

    private final Map<SourcePartition, Long> positions;
    private final Map<SourcePartition, String> commits;
    private final ProgressTableShape shape;

    /** @param positions position by source partition (copied); no commit positions, the current table shape */
    public CommittedPositions(Map<SourcePartition, Long> positions) {
        this(positions, Map.of(), ProgressTableShape.WITH_COMMIT_POSITIONS);
    }

    /**
     * @param positions position by source partition (copied)
     * @param commits   commit position text by (commit source, source partition) (copied)
     * @param shape     the shape of the table read
     */
    public CommittedPositions(Map<SourcePartition, Long> positions, Map<SourcePartition, String> commits,
                              ProgressTableShape shape) {
        this.positions = Map.copyOf(positions);
        this.commits = Map.copyOf(commits);
        this.shape = Objects.requireNonNull(shape, "shape");
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

    /**
     * The committed commit positions: by (commit source, source partition) — the {@link SourcePartition#source()}
     * is the commit source without the {@code #commit:} prefix, e.g. {@code postgresql:pg1} — the text the last
     * committed source transaction of that pair carried. Empty with a legacy table.
     */
    public Map<SourcePartition, String> commits() {
        return commits;
    }

    /** The commit positions grouped by source partition: partition → commit source → text (sorted). */
    public Map<Integer, Map<String, String>> commitsByPartition() {
        Map<Integer, Map<String, String>> result = new TreeMap<>();
        commits.forEach((p, text) -> result.computeIfAbsent(p.partition(), k -> new TreeMap<>()).put(p.source(), text));
        Map<Integer, Map<String, String>> frozen = new TreeMap<>();
        result.forEach((partition, bySource) -> frozen.put(partition, Collections.unmodifiableMap(bySource)));
        return Collections.unmodifiableMap(frozen);
    }

    /** The shape of the progress table these were read from: legacy tables keep no commit positions. */
    public ProgressTableShape tableShape() {
        return shape;
    }

    /** True when no position is committed. */
    public boolean isEmpty() {
        return positions.isEmpty();
    }

    @Override
    public String toString() {
        return new TreeMap<>(bySource()) + (commits.isEmpty() ? "" : ", commit positions of "
                + new TreeMap<>(commitsByPartition()).entrySet().stream().map(e -> e.getKey() + ": "
                + e.getValue().keySet()).toList());
    }
}
