package io.lockstep.app.kafka;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One in-process Kafka broker ({@link EmbeddedKafka}) for all tests of a class: started before the first, closed after
 * the last. Register it as a static field ({@code @RegisterExtension static final EmbeddedKafkaExtension KAFKA = ...});
 * each test creates its own topics.
 */
public final class EmbeddedKafkaExtension implements BeforeAllCallback, AfterAllCallback {
    /** Written before the class's first test and cleared after its last, on JUnit's thread. */
    private EmbeddedKafka kafka;

    @Override
    public void beforeAll(ExtensionContext context) throws InterruptedException {
        kafka = EmbeddedKafka.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (kafka != null) {
            kafka.close();
            kafka = null;
        }
    }

    /** @return {@code host:port} of the running broker */
    public String bootstrapServers() {
        return running().bootstrapServers();
    }

    /**
     * Creates a topic and waits until it is ready.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    public void createTopic(String topic, int partitions) throws InterruptedException {
        running().createTopic(topic, partitions);
    }

    private EmbeddedKafka running() {
        if (kafka == null) {
            throw new IllegalStateException("the broker runs only between the class's first and last test");
        }
        return kafka;
    }
}
