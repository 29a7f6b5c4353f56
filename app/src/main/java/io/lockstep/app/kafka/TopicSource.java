package io.lockstep.app.kafka;

import java.util.Objects;

/**
 * The {@code source} a row of a Kafka topic carries into the exactly-once multi-table sink, and thereby into
 * the progress table: {@code <topic>#<topic id>}, e.g. {@code shop.cdc#q1kFl4TKTpWcJ3Pg7bN2ow}. The topic id is
 * the Uuid Kafka gives a topic when it is created (KIP-516, {@code Admin.describeTopics}); a topic deleted and
 * created again under the same name gets a new one, so the committed positions of the old topic are never
 * taken for offsets of the new one ({@link CommittedStartOffsets} refuses to start). Without a known id (the
 * topic could not be described before the job started) the source is the topic name alone. Stateless.
 */
public final class TopicSource {

    /** Separates the topic name from its id; Kafka topic names cannot contain it. */
    static final char SEPARATOR = '#';

    private TopicSource() {
    }

    /**
     * @param topic the topic name
     * @param topicId the topic id (Kafka's base64 Uuid text), or {@code null} when unknown
     * @return {@code topic#topicId}, or {@code topic} without an id
     */
    public static String name(String topic, String topicId) {
        Objects.requireNonNull(topic, "topic");
        return topicId == null ? topic : topic + SEPARATOR + topicId;
    }

    /** @return the topic name of a source written by {@link #name} */
    public static String topicOf(String source) {
        int at = source.lastIndexOf(SEPARATOR);
        return at < 0 ? source : source.substring(0, at);
    }

    /** @return the topic id of a source written by {@link #name}, or {@code null} when it has none */
    public static String idOf(String source) {
        int at = source.lastIndexOf(SEPARATOR);
        return at < 0 ? null : source.substring(at + 1);
    }
}
