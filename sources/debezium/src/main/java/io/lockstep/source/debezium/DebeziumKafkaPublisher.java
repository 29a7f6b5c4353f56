package io.lockstep.source.debezium;

import io.debezium.embedded.Connect;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a Debezium connector in Debezium's embedded engine and publishes its change events into Kafka the way a
 * Kafka Connect worker does: the connector's single message transforms (the {@code transforms.*} properties, e.g.
 * a {@code RegexRouter} that routes the data topics and the transaction topic into one topic) run inside the
 * engine, then the key and the value go through Kafka Connect's {@link JsonConverter} configured from the
 * {@code key.converter.*} and {@code value.converter.*} properties ({@code schemas.enable}, {@code decimal.format}),
 * and the record goes to its topic with the producer's default partitioner on the key bytes (as a worker does when
 * the record names no partition).
 *
 * <p>Delivery is at least once, in order: a batch is sent, every send is acknowledged ({@code acks=all},
 * idempotent producer), and only then are the batch's offsets marked processed, so Debezium's offset store never
 * runs ahead of Kafka. A send that fails stops the engine; {@link #failure()} holds the cause.
 *
 * <p>Threads: the engine runs on one thread of its own; {@link #failure()} and {@link #published()} may be read
 * from any thread; {@link #close()} from the owner's thread.
 */
public final class DebeziumKafkaPublisher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DebeziumKafkaPublisher.class);

    private final DebeziumEngine<ChangeEvent<SourceRecord, SourceRecord>> engine;
    private final ExecutorService runner;
    private final KafkaProducer<byte[], byte[]> producer;
    private final JsonConverter keyConverter = new JsonConverter();
    private final JsonConverter valueConverter = new JsonConverter();
    /** Set once by the engine's thread (send failure) or its completion callback; read by anyone. */
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** Set by the engine's completion callback once the engine has stopped (it then refuses close()). */
    private final AtomicBoolean stopped = new AtomicBoolean();
    /** Records acknowledged by Kafka; written by the engine's thread. */
    private final AtomicLong published = new AtomicLong();

    private DebeziumKafkaPublisher(Properties connector, String bootstrapServers) {
        keyConverter.configure(prefixed(connector, "key.converter."), true);
        valueConverter.configure(prefixed(connector, "value.converter."), false);
        Map<String, Object> producerConfig = new HashMap<>();
        producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerConfig.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        producerConfig.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        producerConfig.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        this.producer = new KafkaProducer<>(producerConfig);
        this.engine = DebeziumEngine.create(Connect.class)
                .using(connector)
                .notifying(this::publishBatch)
                .using((success, message, error) -> {
                    stopped.set(true);
                    if (!success) {
                        failure.compareAndSet(null, new IllegalStateException(message, error));
                        LOG.error("Debezium engine stopped: {}", message);
                    }
                })
                .build();
        this.runner = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "debezium-engine");
            t.setDaemon(true);
            return t;
        });
        runner.execute(engine);
    }

    /**
     * Starts the connector.
     *
     * @param connector the connector's properties as a Kafka Connect user writes them ({@code connector.class},
     *     {@code database.*}, {@code topic.prefix}, {@code transforms.*}, {@code key.converter.schemas.enable},
     *     {@code value.converter.schemas.enable}) plus the embedded engine's {@code name},
     *     {@code offset.storage} and {@code offset.flush.interval.ms}
     * @param bootstrapServers the Kafka brokers to publish to, {@code host:port[,host:port]}
     * @return the running publisher; close it to stop the connector
     */
    public static DebeziumKafkaPublisher start(Properties connector, String bootstrapServers) {
        return new DebeziumKafkaPublisher(connector, bootstrapServers);
    }

    private void publishBatch(List<ChangeEvent<SourceRecord, SourceRecord>> batch,
            DebeziumEngine.RecordCommitter<ChangeEvent<SourceRecord, SourceRecord>> committer)
            throws InterruptedException {
        List<Future<RecordMetadata>> sends = new ArrayList<>(batch.size());
        for (ChangeEvent<SourceRecord, SourceRecord> event : batch) {
            SourceRecord record = event.value();
            byte[] key = keyConverter.fromConnectData(record.topic(), record.keySchema(), record.key());
            byte[] value = valueConverter.fromConnectData(record.topic(), record.valueSchema(), record.value());
            sends.add(producer.send(new ProducerRecord<>(record.topic(), record.kafkaPartition(), key, value)));
        }
        try {
            for (Future<RecordMetadata> send : sends) {
                send.get();
            }
        } catch (ExecutionException e) {
            failure.compareAndSet(null, e.getCause());
            throw new IllegalStateException("publishing a Debezium batch to Kafka failed: " + e.getCause(), e);
        }
        published.addAndGet(sends.size());
        for (ChangeEvent<SourceRecord, SourceRecord> event : batch) {
            committer.markProcessed(event);
        }
        committer.markBatchFinished();
    }

    /** @return the records Kafka acknowledged so far */
    public long published() {
        return published.get();
    }

    /**
     * @return why the engine stopped (an exception whose message is the engine's, caused by the engine's error, or
     *     the Kafka send failure), or {@code null} while it runs or after a clean stop
     */
    public Throwable failure() {
        return failure.get();
    }

    /**
     * The engine refuses to stop while its task is still starting (it would leak it): wait for the start. An engine
     * that already stopped on its own (a failure) is not closed again.
     */
    private void closeEngine() throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!stopped.get()) {
            try {
                engine.close();
                return;
            } catch (IllegalStateException e) {
                if (stopped.get()) {
                    return; // it stopped (failed) on its own meanwhile
                }
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private static Map<String, Object> prefixed(Properties properties, String prefix) {
        Map<String, Object> config = new HashMap<>();
        for (String name : properties.stringPropertyNames()) {
            if (name.startsWith(prefix)) {
                config.put(name.substring(prefix.length()), properties.getProperty(name));
            }
        }
        return config;
    }

    /** Stops the connector (offsets of published records are flushed by the engine), then the producer. */
    @Override
    public void close() throws IOException {
        try {
            closeEngine();
        } finally {
            runner.shutdown();
            try {
                if (!runner.awaitTermination(30, TimeUnit.SECONDS)) {
                    LOG.warn("the Debezium engine did not stop within 30 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            producer.close();
        }
    }
}
