package io.lockstep.app.rebuild;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * Debezium's default topic layout as a job reads it: one topic per table (any number of partitions) and the
 * transaction metadata topic {@code <topic.prefix>.transaction} (one partition), from which the job rebuilds each
 * source transaction before it is assembled (docs/sources.md#debeziums-default-layout-one-topic-per-table).
 * Immutable and serializable (it travels with the job graph).
 *
 * @param transactionTopic the transaction metadata topic, e.g. {@code pg.transaction}
 * @param tableTopics the table topics read, e.g. {@code pg.public.accounts}; empty when {@code tableTopicPattern}
 *     names them
 * @param tableTopicPattern a Java regular expression the table topics match (Kafka's pattern subscription), or
 *     {@code null} when {@code tableTopics} lists them
 * @param maxPendingBytes most bytes (UTF-8 row text) the rebuild may hold for transactions still waiting for
 *     events of another topic (&gt; 0)
 * @param committedRebuiltPosition the rebuilt position the progress table held when the run started (the last
 *     released unit committed), or -1 for none: the rebuild continues numbering above it
 */
public record TopicLayout(String transactionTopic, List<String> tableTopics, String tableTopicPattern,
        long maxPendingBytes, long committedRebuiltPosition) implements Serializable {

    /** Default of {@link #maxPendingBytes()}: 256 MiB. */
    public static final long DEFAULT_MAX_PENDING_BYTES = 256L * 1024 * 1024;
    /**
     * Appended to the transaction topic to name the source the rebuilt rows carry in the progress table: {@code +}
     * cannot occur in a Kafka topic name, so it never clashes with a topic.
     */
    public static final String REBUILT_SOURCE_SUFFIX = "+rebuilt";

    /** @throws IllegalArgumentException naming what is missing or out of range */
    public TopicLayout {
        Objects.requireNonNull(transactionTopic, "transactionTopic");
        tableTopics = tableTopics == null ? List.of() : List.copyOf(tableTopics);
        if (tableTopics.isEmpty() == (tableTopicPattern == null)) {
            throw new IllegalArgumentException("table topics: give either a list or a pattern, not "
                    + (tableTopics.isEmpty() ? "neither" : "both"));
        }
        if (maxPendingBytes <= 0) {
            throw new IllegalArgumentException("maxPendingBytes must be positive, was " + maxPendingBytes);
        }
    }

    /** @return the source name every rebuilt row carries: the transaction topic and {@value #REBUILT_SOURCE_SUFFIX} */
    public String rebuiltSource() {
        return transactionTopic + REBUILT_SOURCE_SUFFIX;
    }

    /**
     * Debezium's default topic naming ({@code topic.prefix}, then the data collection): the topic of a data
     * collection is the transaction topic's prefix (the transaction topic without {@code .transaction}), a dot and
     * the collection, e.g. {@code pg.public.orders} for {@code public.orders} with {@code pg.transaction}.
     *
     * @param dataCollection a data collection as an END names it, e.g. {@code public.orders}
     * @return the topic Debezium writes its events to by default
     */
    public String tableTopicOf(String dataCollection) {
        String prefix = transactionTopic.endsWith(".transaction")
                ? transactionTopic.substring(0, transactionTopic.length() - ".transaction".length())
                : transactionTopic;
        return prefix + "." + dataCollection;
    }

    /**
     * @param topic a topic name
     * @return whether the job reads it as a table topic: listed in {@link #tableTopics()} or matched by
     *     {@link #tableTopicPattern()} (whole name)
     */
    public boolean readsTableTopic(String topic) {
        return tableTopics.contains(topic)
                || tableTopicPattern != null && java.util.regex.Pattern.matches(tableTopicPattern, topic);
    }

    /** @return a copy continuing after {@code position} (the committed rebuilt position, -1 for none) */
    public TopicLayout withCommittedRebuiltPosition(long position) {
        return new TopicLayout(transactionTopic, tableTopics, tableTopicPattern, maxPendingBytes, position);
    }
}
