package io.lockstep.app.job;

import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.SinkInput;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.functions.MapFunction;

/**
 * The pipeline step that gives the rows of each Kafka topic the source name that carries the topic's identity
 * ({@link io.lockstep.app.kafka.TopicSource#name}: {@code topic#topicId}) before they reach the exactly-once
 * multi-table sink, which commits one position per (source, source partition) in its progress table. The
 * assemblers stamp the bare topic; rows of other sources (e.g. the rebuilt source {@code <txTopic>+rebuilt} of
 * Debezium's one-topic-per-table layout) pass unchanged. The keys of a row's covered positions
 * ({@code topic/partition}, {@link LoadRow#getCoveredPositions()}) are renamed the same way
 * ({@code topic#topicId/partition}; docs/exactly-once.md#progress-rows-of-the-multi-topic-layout); a key of a topic
 * not in the map passes unchanged. Stateless; the row is changed in place (it is the assembler's own copy); control
 * marks pass unchanged.
 */
public final class SourceIdentity implements MapFunction<SinkInput, SinkInput> {
    private static final long serialVersionUID = 1L;

    /** Topic the assemblers stamp -> the source name given instead; never modified after construction. */
    private final HashMap<String, String> sources;

    /**
     * One topic (the one-topic layout).
     *
     * @param topic the topic the assemblers stamp as the rows' source
     * @param source the source name to give those rows instead
     */
    public SourceIdentity(String topic, String source) {
        this(Map.of(Objects.requireNonNull(topic, "topic"), Objects.requireNonNull(source, "source")));
    }

    /**
     * Several topics (the one-topic-per-table layout: table topics and the transaction topic).
     *
     * @param sources per topic the assemblers (or the rebuild, in covered positions) stamp, the source name to give
     *     it instead; copied
     * @throws IllegalArgumentException if the map is empty
     */
    public SourceIdentity(Map<String, String> sources) {
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("source identity needs at least one topic");
        }
        this.sources = new HashMap<>(sources);
    }

    @Override
    public SinkInput map(SinkInput input) {
        if (!(input instanceof LoadRow row)) {
            return input;
        }
        String source = row.getSource() == null ? null : sources.get(row.getSource());
        if (source != null) {
            row.setSource(source);
        }
        Map<String, Long> covered = row.getCoveredPositions();
        if (covered != null) {
            row.setCoveredPositions(renamed(covered));
        }
        return input;
    }

    /** @return the covered positions with each known topic replaced by its source name (a new map) */
    private Map<String, Long> renamed(Map<String, Long> covered) {
        Map<String, Long> renamed = new HashMap<>();
        covered.forEach((key, position) -> {
            int slash = key.lastIndexOf('/');
            String source = slash <= 0 ? null : sources.get(key.substring(0, slash));
            renamed.put(source == null ? key : source + key.substring(slash), position);
        });
        return renamed;
    }
}
