package io.lockstep.app.cli;

import io.lockstep.app.event.CdcFormat;
import io.lockstep.app.job.PipelineConfig;
import io.lockstep.app.rebuild.TopicLayout;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine.Option;

/**
 * The options of {@code lockstep run} that choose the topic layout: {@code --topic} alone is the one-topic layout (every
 * event of the source in one topic); {@code --transaction-topic} switches to Debezium's default layout, one topic per
 * table ({@code --topic} listing them, or {@code --topic-pattern}) and the transaction topic, from which the job
 * rebuilds each source transaction (docs/sources.md#debeziums-default-layout-one-topic-per-table). A picocli mixin of
 * {@link RunCommand}; {@link #layout} checks the combinations. Read on the thread running the command; not thread safe.
 */
final class RunTopicLayout {

    @Option(names = "--topic-pattern", paramLabel = "REGEX",
            description = "With --transaction-topic: read every table topic whose whole name matches this Java "
                    + "regular expression (Kafka's pattern subscription; topics created later are picked up), "
                    + "instead of listing them with --topic; it must not match the transaction topic.")
    String topicPattern;

    @Option(names = "--transaction-topic", paramLabel = "TOPIC",
            description = "Read Debezium's default layout: the table topics of --topic (a comma-separated list) or "
                    + "--topic-pattern, and this transaction metadata topic (provide.transaction.metadata=true; one "
                    + "partition), from which each source transaction is rebuilt before it is loaded "
                    + "(docs/sources.md). Debezium only; without it --topic is one topic holding everything.")
    String transactionTopic;

    @Option(names = "--max-pending-bytes", paramLabel = "BYTES",
            description = "With --transaction-topic: most bytes of row text held for transactions still waiting "
                    + "for events of another topic; reaching it stops the job naming the transaction and what it "
                    + "waits for (default: ${DEFAULT-VALUE}, 256 MiB).")
    long maxPendingBytes = TopicLayout.DEFAULT_MAX_PENDING_BYTES;

    @Option(names = "--max-topic-drift", converter = DurationMs.class, paramLabel = "DURATION",
            description = "With --transaction-topic: how far, in Kafka record time, a topic partition may read "
                    + "ahead of the slowest active one before it is paused until the others catch up (Flink "
                    + "watermark alignment); a partition without records for this long does not hold the others "
                    + "back (default: 30s).")
    long maxTopicDriftMs = PipelineConfig.DEFAULT_MAX_TOPIC_DRIFT_MS;

    /**
     * @param topicOption the value of {@code --topic}, or {@code null}
     * @return the topics it names: comma-separated, trimmed, in the order given (empty for {@code null})
     * @throws IllegalArgumentException for an empty entry or a topic named twice
     */
    static List<String> topics(String topicOption) {
        if (topicOption == null) {
            return List.of();
        }
        List<String> topics = Arrays.stream(topicOption.split(",", -1)).map(String::trim).toList();
        if (topics.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException("--topic " + topicOption + ": an empty topic name in the list");
        }
        Set<String> distinct = new LinkedHashSet<>(topics);
        if (distinct.size() != topics.size()) {
            throw new IllegalArgumentException("--topic " + topicOption + ": a topic is named twice");
        }
        return topics;
    }

    /**
     * The layout the options ask for, refusing the combinations that cannot work.
     *
     * @param topicOption the value of {@code --topic}, or {@code null}
     * @param format the input format
     * @param input the {@code --input} file, or {@code null}
     * @param layoutOptionGiven whether {@code --max-pending-bytes} or {@code --max-topic-drift} was given
     * @return Debezium's default layout, or {@code null} for the one-topic layout
     * @throws IllegalArgumentException with the one-line usage error
     */
    TopicLayout layout(String topicOption, CdcFormat format, Path input, boolean layoutOptionGiven) {
        List<String> topics = topics(topicOption);
        if (transactionTopic == null) {
            if (topicPattern != null) {
                throw new IllegalArgumentException("--topic-pattern reads table topics: it needs --transaction-topic "
                        + "(Debezium's default layout, docs/sources.md#debeziums-default-layout-one-topic-per-table)");
            }
            if (topics.size() > 1) {
                throw new IllegalArgumentException("--topic lists " + topics.size() + " topics: several table topics "
                        + "need --transaction-topic (Debezium's default layout, "
                        + "docs/sources.md#debeziums-default-layout-one-topic-per-table); without it the job reads one "
                        + "topic holding every event");
            }
            if (layoutOptionGiven) {
                throw new IllegalArgumentException("--max-pending-bytes and --max-topic-drift apply to "
                        + "--transaction-topic only");
            }
            return null;
        }
        if (input != null) {
            throw new IllegalArgumentException("--input reads one file in the one-topic layout: it goes without "
                    + "--transaction-topic");
        }
        if (format != CdcFormat.DEBEZIUM) {
            throw new IllegalArgumentException("--transaction-topic reads Debezium's transaction metadata topic: it "
                    + "goes with --format debezium (" + format.optionValue() + " writes every event to one topic)");
        }
        if (transactionTopic.isBlank()) {
            throw new IllegalArgumentException("--transaction-topic must not be blank");
        }
        if (topics.isEmpty() == (topicPattern == null)) {
            throw new IllegalArgumentException("--transaction-topic " + transactionTopic + " needs the table topics: "
                    + (topics.isEmpty() ? "give" : "give only one of") + " --topic T1,T2,... or --topic-pattern REGEX");
        }
        if (topics.contains(transactionTopic)) {
            throw new IllegalArgumentException("--topic lists the transaction topic " + transactionTopic + ": list "
                    + "only the table topics (the transaction topic is read once, as --transaction-topic)");
        }
        if (topicPattern != null && matches(topicPattern, transactionTopic)) {
            throw new IllegalArgumentException("--topic-pattern " + topicPattern + " matches the transaction topic "
                    + transactionTopic + ": narrow it to the table topics (e.g. the schema's prefix, 'pg\\.public\\..*')");
        }
        if (maxPendingBytes <= 0) {
            throw new IllegalArgumentException("--max-pending-bytes must be positive, got " + maxPendingBytes);
        }
        if (maxTopicDriftMs <= 0) {
            throw new IllegalArgumentException("--max-topic-drift must be positive, got " + maxTopicDriftMs + " ms");
        }
        return new TopicLayout(transactionTopic, topics, topicPattern, maxPendingBytes, -1);
    }

    /** @throws IllegalArgumentException when {@code pattern} is not a regular expression */
    private static boolean matches(String pattern, String topic) {
        try {
            return Pattern.compile(pattern).matcher(topic).matches();
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("--topic-pattern " + pattern + " is not a regular expression: "
                    + e.getDescription());
        }
    }
}
