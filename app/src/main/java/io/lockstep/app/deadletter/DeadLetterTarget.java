package io.lockstep.app.deadletter;

import java.io.Serializable;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * Where dead letters go ({@code --dead-letter}): {@code file:PATH}, a JSON-lines file, or {@code topic:NAME}, a Kafka
 * topic on the source's brokers (docs/dead-letter.md). Immutable and serializable (it travels inside the assembler,
 * which opens its {@link DeadLetterWriter}).
 */
public final class DeadLetterTarget implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The kind of destination. */
    public enum Kind {
        /** A JSON-lines file. */
        FILE,
        /** A Kafka topic. */
        TOPIC
    }

    private final Kind kind;
    private final String name;
    /** Producer settings of a {@link Kind#TOPIC} target ({@code bootstrap.servers} included); empty for a file. */
    private final Properties kafka;

    private DeadLetterTarget(Kind kind, String name, Properties kafka) {
        this.kind = kind;
        this.name = name;
        this.kafka = kafka;
    }

    /**
     * @param spec {@code file:PATH} or {@code topic:NAME}
     * @return the target; a topic still needs its brokers ({@link #onBrokers})
     * @throws IllegalArgumentException naming the expected forms
     */
    public static DeadLetterTarget parse(String spec) {
        Objects.requireNonNull(spec, "spec");
        int colon = spec.indexOf(':');
        String prefix = colon < 0 ? "" : spec.substring(0, colon);
        String name = colon < 0 ? "" : spec.substring(colon + 1).strip();
        if (name.isEmpty() || !(prefix.equals("file") || prefix.equals("topic"))) {
            throw new IllegalArgumentException("expected topic:NAME or file:PATH, got '" + spec + "'");
        }
        return new DeadLetterTarget(prefix.equals("file") ? Kind.FILE : Kind.TOPIC, name, new Properties());
    }

    /**
     * @param bootstrap Kafka {@code bootstrap.servers}
     * @param settings further client settings (the source's: security and the like), may be empty
     * @return this topic target on those brokers
     */
    public DeadLetterTarget onBrokers(String bootstrap, Properties settings) {
        Properties properties = new Properties();
        properties.putAll(settings);
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return new DeadLetterTarget(kind, name, properties);
    }

    /** @return the kind */
    public Kind kind() {
        return kind;
    }

    /** @return the file path or the topic name */
    public String name() {
        return name;
    }

    /**
     * @return a writer to this destination
     * @throws IllegalStateException for a topic without brokers
     */
    public DeadLetterWriter open() {
        if (kind == Kind.FILE) {
            return new FileDeadLetterWriter(Path.of(name), Clock.systemUTC());
        }
        if (!kafka.containsKey(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)) {
            throw new IllegalStateException("dead-letter topic '" + name + "' has no brokers");
        }
        return new TopicDeadLetterWriter(name, kafka, Clock.systemUTC());
    }

    /** @return {@code file:PATH} or {@code topic:NAME}, as given */
    @Override
    public String toString() {
        return (kind == Kind.FILE ? "file:" : "topic:") + name;
    }
}
