package io.lockstep.app.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A one-node Kafka broker in this JVM: KRaft in combined mode (the node is broker and controller), no ZooKeeper,
 * listening on a free port of {@code localhost} that the kit binds itself. Built on Kafka's {@link KafkaClusterTestKit}
 * (artifact {@code kafka-test-common-runtime}). Its logs live in a temporary directory that {@link #close()} deletes.
 *
 * <p>Meant for the demo and tests: one replica of everything (offsets and transaction-state topics
 * included), plain text, no authentication. Start takes about 2 s. Thread safe: the admin client and the
 * kit may be used from any thread; {@link #close()} may be called more than once.
 */
public final class EmbeddedKafka implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);

    /** How long {@link #createTopic} waits for the broker to confirm a topic. */
    private static final long ADMIN_TIMEOUT_MS = 30_000;
    /** Pause between checks whether the broker has loaded a new topic. */
    private static final long TOPIC_POLL_MS = 20;

    private final KafkaClusterTestKit cluster;
    private final String bootstrapServers;
    private final Admin admin;
    private final AtomicBoolean closed = new AtomicBoolean();

    private EmbeddedKafka(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
        this.bootstrapServers = cluster.bootstrapServers();
        Properties adminProperties = new Properties();
        adminProperties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        this.admin = Admin.create(adminProperties);
    }

    /**
     * Formats the node's storage, starts it and waits until the broker serves clients.
     *
     * @return the running broker; close it to stop it and delete its data
     * @throws IllegalStateException when the broker does not start (the kit's error is the cause)
     * @throws InterruptedException when interrupted while waiting for the broker
     */
    public static EmbeddedKafka start() throws InterruptedException {
        long startNanos = System.nanoTime();
        KafkaClusterTestKit cluster = null;
        try {
            TestKitNodes nodes = new TestKitNodes.Builder()
                    .setCombined(true)
                    .setNumBrokerNodes(1)
                    .setNumControllerNodes(1)
                    // The kit defaults to the newest metadata version still in testing; a demo wants the
                    // version a released broker boots with.
                    .setBootstrapMetadataVersion(MetadataVersion.LATEST_PRODUCTION)
                    .build();
            cluster = new KafkaClusterTestKit.Builder(nodes)
                    .setConfigProp("offsets.topic.replication.factor", "1")
                    .setConfigProp("offsets.topic.num.partitions", "1")
                    .setConfigProp("transaction.state.log.replication.factor", "1")
                    .setConfigProp("transaction.state.log.min.isr", "1")
                    .setConfigProp("transaction.state.log.num.partitions", "1")
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    .setConfigProp("auto.create.topics.enable", "false")
                    .build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            EmbeddedKafka kafka = new EmbeddedKafka(cluster);
            LOG.info("Embedded Kafka broker at {} started in {} ms", kafka.bootstrapServers,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
            return kafka;
        } catch (InterruptedException e) {
            closeQuietly(cluster);
            throw e;
        } catch (Exception e) {
            closeQuietly(cluster);
            throw new IllegalStateException("the embedded Kafka broker did not start: " + e.getMessage(), e);
        }
    }

    /** @return {@code host:port} of the broker, for {@code bootstrap.servers} */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /**
     * Creates a topic with one replica and waits until the broker serves it.
     *
     * @param topic topic name
     * @param partitions number of partitions (&gt; 0)
     * @throws IllegalArgumentException when {@code partitions} is not positive
     * @throws IllegalStateException naming the topic when the broker refuses it (for example it exists) or
     *     does not answer within 30 s
     * @throws InterruptedException when interrupted while waiting
     */
    public void createTopic(String topic, int partitions) throws InterruptedException {
        if (partitions <= 0) {
            throw new IllegalArgumentException("topic '" + topic + "' needs at least one partition, got "
                    + partitions);
        }
        try {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
                    .all()
                    .get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot create topic '" + topic + "' with " + partitions
                    + " partitions: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("creating topic '" + topic + "' took longer than "
                    + ADMIN_TIMEOUT_MS + " ms", e);
        }
        awaitTopicOnBroker(topic);
    }

    /**
     * The controller confirms a new topic before the broker has loaded it into its metadata cache; until
     * then clients get {@code UnknownTopicOrPartitionException}. Waits (up to 30 s) until the broker
     * describes the topic, so the caller can produce and consume right away.
     */
    private void awaitTopicOnBroker(String topic) throws InterruptedException {
        long deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ADMIN_TIMEOUT_MS);
        while (true) {
            try {
                admin.describeTopics(List.of(topic)).allTopicNames().get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new IllegalStateException("cannot describe new topic '" + topic + "': "
                            + e.getCause().getMessage(), e.getCause());
                }
            } catch (TimeoutException e) {
                throw new IllegalStateException("describing new topic '" + topic + "' took longer than "
                        + ADMIN_TIMEOUT_MS + " ms", e);
            }
            if (System.nanoTime() > deadlineNanos) {
                throw new IllegalStateException("the broker did not load new topic '" + topic + "' within "
                        + ADMIN_TIMEOUT_MS + " ms");
            }
            Thread.sleep(TOPIC_POLL_MS);
        }
    }

    /**
     * @param topics topic names
     * @return the partition count of each topic
     * @throws IllegalStateException when the broker does not answer within 30 s or a topic is unknown
     * @throws InterruptedException when interrupted while waiting
     */
    public Map<String, Integer> partitionCounts(List<String> topics) throws InterruptedException {
        try {
            return admin.describeTopics(topics).allTopicNames().get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                    .entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey,
                            e -> e.getValue().partitions().size()));
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot describe topics " + topics + ": " + e.getCause().getMessage(),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("describing topics " + topics + " took longer than "
                    + ADMIN_TIMEOUT_MS + " ms", e);
        }
    }

    /** Stops the broker and deletes its data directory. Safe to call twice. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        long startNanos = System.nanoTime();
        admin.close(Duration.ofSeconds(5));
        closeQuietly(cluster);
        LOG.info("Embedded Kafka broker at {} stopped in {} ms", bootstrapServers,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
    }

    private static void closeQuietly(KafkaClusterTestKit cluster) {
        if (cluster == null) {
            return;
        }
        try {
            cluster.close();
        } catch (Exception e) {
            LOG.warn("Stopping the embedded Kafka broker failed: {}", e.toString());
        }
    }
}
