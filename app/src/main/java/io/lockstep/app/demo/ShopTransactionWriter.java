package io.lockstep.app.demo;

import io.lockstep.app.demo.ShopTransaction.CdcMessage;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Writes generated shop transactions to a Kafka topic with a {@link KafkaProducer}: every message of a
 * transaction to the transaction's partition, in order (idempotent producer, {@code acks=all}, so retries
 * neither reorder nor duplicate). Runs for a count of transactions ({@link #writeCount}) or at a rate for
 * a duration ({@link #writePaced}); {@link #stop()} ends either early, after a whole transaction.
 *
 * <p>Threads: one thread writes (it owns the generator while writing); any thread may read the counters
 * and call {@link #stop()}. A failed send is remembered and thrown, naming the transaction, by the next
 * write or by {@link #flush()}.
 */
public final class ShopTransactionWriter implements AutoCloseable {

    /**
     * Time source and sleep of {@link #writePaced}, injectable so pacing is testable without waiting.
     */
    public interface Ticker {
        /** @return a monotonic time in ns */
        long nanoTime();

        /**
         * @param nanos how long to wait (&gt; 0)
         * @throws InterruptedException when interrupted
         */
        void sleepNanos(long nanos) throws InterruptedException;

        /** The system's monotonic clock and {@link Thread#sleep}. */
        Ticker SYSTEM = new Ticker() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public void sleepNanos(long nanos) throws InterruptedException {
                TimeUnit.NANOSECONDS.sleep(nanos);
            }
        };
    }

    private final KafkaProducer<String, String> producer;
    private final String topic;
    private final AtomicLong writtenTransactions = new AtomicLong();
    private final AtomicLong writtenMessages = new AtomicLong();
    /** The first failed send, set by producer I/O threads, read by the writing thread. */
    private final AtomicReference<RuntimeException> sendFailure = new AtomicReference<>();
    private volatile boolean stopRequested;

    /**
     * @param bootstrapServers Kafka {@code bootstrap.servers}
     * @param topic the topic to write to (it must exist with the workload's partition count)
     */
    public ShopTransactionWriter(String bootstrapServers, String topic) {
        this.topic = Objects.requireNonNull(topic, "topic");
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        properties.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        properties.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        properties.put(ProducerConfig.CLIENT_ID_CONFIG, "lockstep-shop-generator");
        this.producer = new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer());
    }

    /**
     * Sends one transaction's messages (asynchronously; {@link #flush()} waits for them).
     *
     * @param transaction the transaction
     * @throws IllegalStateException naming the transaction of an earlier failed send
     */
    public void write(ShopTransaction transaction) {
        throwIfSendFailed();
        for (CdcMessage message : transaction.messages()) {
            producer.send(new ProducerRecord<>(topic, transaction.partition(), message.key(), message.value()),
                    (metadata, error) -> {
                        if (error != null) {
                            sendFailure.compareAndSet(null, new IllegalStateException("sending transaction "
                                    + transaction.id() + " to topic '" + topic + "' partition "
                                    + transaction.partition() + " failed: " + error.getMessage(), error));
                        }
                    });
        }
        writtenMessages.addAndGet(transaction.messages().size());
        writtenTransactions.incrementAndGet();
    }

    /**
     * Generates and writes {@code count} transactions, then flushes.
     *
     * @param generator the workload (used by this thread only while this runs)
     * @param count number of transactions (&gt;= 0)
     * @return transactions written (fewer than {@code count} when stopped)
     * @throws IllegalStateException naming the transaction when a send failed
     */
    public long writeCount(ShopTransactionGenerator generator, long count) {
        long written = 0;
        while (written < count && !stopRequested) {
            write(generator.next());
            written++;
        }
        flush();
        return written;
    }

    /**
     * Generates and writes transactions at a steady rate for a duration, then flushes. Transaction
     * {@code i} (from 0) is sent at {@code start + i / rate}; when sending falls behind, it catches up
     * without sleeping.
     *
     * @param generator the workload (used by this thread only while this runs)
     * @param transactionsPerSecond target rate (&gt; 0)
     * @param durationMs how long to write, in ms
     * @param ticker time source and sleep ({@link Ticker#SYSTEM} outside tests)
     * @return transactions written
     * @throws IllegalArgumentException when the rate is not positive
     * @throws IllegalStateException naming the transaction when a send failed
     * @throws InterruptedException when interrupted while pacing (what was sent is flushed first)
     */
    public long writePaced(ShopTransactionGenerator generator, double transactionsPerSecond, long durationMs,
            Ticker ticker) throws InterruptedException {
        if (!(transactionsPerSecond > 0)) {
            throw new IllegalArgumentException("the transaction rate must be positive, got " + transactionsPerSecond);
        }
        long startNanos = ticker.nanoTime();
        long durationNanos = TimeUnit.MILLISECONDS.toNanos(durationMs);
        double intervalNanos = 1e9 / transactionsPerSecond;
        long written = 0;
        try {
            while (!stopRequested) {
                long dueNanos = (long) (written * intervalNanos);
                if (dueNanos >= durationNanos) {
                    break;
                }
                long waitNanos = dueNanos - (ticker.nanoTime() - startNanos);
                if (waitNanos > 0) {
                    ticker.sleepNanos(waitNanos);
                }
                write(generator.next());
                written++;
            }
        } finally {
            flush();
        }
        return written;
    }

    /** Asks a running {@link #writeCount} or {@link #writePaced} to end after the current transaction. */
    public void stop() {
        stopRequested = true;
    }

    /** @return transactions handed to the producer so far */
    public long writtenTransactions() {
        return writtenTransactions.get();
    }

    /** @return messages (BEGIN, data events, END) handed to the producer so far */
    public long writtenMessages() {
        return writtenMessages.get();
    }

    /**
     * Waits until every message sent so far is acknowledged.
     *
     * @throws IllegalStateException naming the transaction when a send failed
     */
    public void flush() {
        producer.flush();
        throwIfSendFailed();
    }

    private void throwIfSendFailed() {
        RuntimeException failure = sendFailure.get();
        if (failure != null) {
            throw failure;
        }
    }

    /** Flushes what was sent and closes the producer. */
    @Override
    public void close() {
        producer.close();
    }
}
