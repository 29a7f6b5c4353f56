package io.lockstep.app.job;

import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.SinkInput;
import java.util.Objects;
import org.apache.flink.api.common.functions.MapFunction;

/**
 * The pipeline step that gives the rows of one Kafka topic the source name that carries the topic's identity
 * ({@link io.lockstep.app.kafka.TopicSource#name}: {@code topic#topicId}) before they reach the exactly-once
 * multi-table sink, which commits one position per (source, source partition) in its progress table. The
 * assemblers stamp the bare topic; rows of other sources pass unchanged. Stateless; the row is changed in place
 * (it is the assembler's own copy); control marks pass unchanged.
 */
public final class SourceIdentity implements MapFunction<SinkInput, SinkInput> {
    private static final long serialVersionUID = 1L;

    private final String topic;
    private final String source;

    /**
     * @param topic the topic the assemblers stamp as the rows' source
     * @param source the source name to give those rows instead
     */
    public SourceIdentity(String topic, String source) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.source = Objects.requireNonNull(source, "source");
    }

    @Override
    public SinkInput map(SinkInput input) {
        if (input instanceof LoadRow row && topic.equals(row.getSource())) {
            row.setSource(source);
        }
        return input;
    }
}
