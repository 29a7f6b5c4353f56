package io.lockstep.core.progress;

import java.util.Objects;

/**
 * One partition of one source, e.g. partition 3 of Kafka topic {@code oltp.all}: the unit whose source positions
 * grow and are committed.
 *
 * @param source    the source name (e.g. the Kafka topic); never null or blank
 * @param partition the source partition, &gt;= 0
 */
public record SourcePartition(String source, int partition) {
    /**
     * @throws IllegalArgumentException if the source is null or blank, or the partition is negative
     */
    public SourcePartition {
        if (source == null || source.isBlank()) {
            throw new IllegalArgumentException("source must be a non-blank name, was " + (source == null ? "null"
                    : "'" + source + "'"));
        }
        if (partition < 0) {
            throw new IllegalArgumentException("source partition must be >= 0, was " + partition);
        }
        Objects.requireNonNull(source);
    }

    @Override
    public String toString() {
        return source + "/" + partition;
    }
}
