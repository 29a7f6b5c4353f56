package io.lockstep.app.chaos;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.app.demo.ShopTransaction.CdcMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The chaos fault class "upstream re-send (Debezium restart)": plays a Debezium connector that publishes the source
 * transactions into the topic (each transaction's records into its partition, in commit order) and is killed and
 * restarted a few times. A restart is placed the way docs/input-formats.md ("Offsets, restarts and what is sent
 * again") and the real crash of app/src/test/resources/debezium/README.md show it: the dead connector had
 * published up to a point inside transaction {@code cut} (its BEGIN and some records, no END); the restarted one
 * resumes right after the last record whose offset it had flushed, a record of an earlier transaction
 * {@code flushed}, and from there publishes its whole output again, contiguously, at higher offsets:
 * <ol>
 *   <li>the rest of {@code flushed}, which had ended before the crash, without its BEGIN (the connector restores
 *       the transaction id from its offsets and suppresses the BEGIN): its data events after the flushed
 *       {@code total_order} and END ({@link Shape#RESUMED_TAIL}; when the flushed record is the BEGIN, every data
 *       event from {@code total_order} 1);
 *   <li>every transaction between them whole again, BEGIN to END ({@link Shape#WHOLE});
 *   <li>{@code cut} whole from its BEGIN ({@link Shape#CUT_THEN_WHOLE}), then the transactions never sent.
 * </ol>
 * Each re-sent record is the record written before: same key, same GTID, binlog file and position, transaction id,
 * {@code total_order} and row images; BEGIN and END are byte for byte the same. Only the envelope {@code ts_ms} of a
 * data event, the time the connector processed it, is later, as in the real crash (the README's topic: identical
 * BEGIN/END records, data events differing only in {@code ts_ms}/{@code ts_us}/{@code ts_ns}).
 *
 * <p>Restarts alternate three variants: the cut transaction in the partition of the resumed tail (so the tail's
 * data events arrive while the cut transaction is open there, as in the real crash's one partition), in another
 * partition, and a flushed point at a BEGIN.
 *
 * <p>Threads: the test thread calls everything; {@link #publishRestAsync} hands the producer to one background
 * thread, which owns it until {@link #awaitPublished} returns.
 */
final class UpstreamResendInjector implements AutoCloseable {
    /** How much later a restarted connector processes a re-sent event: Kafka Connect's default flush interval. */
    static final long RESTART_DELAY_MS = 60_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** How a re-sent transaction comes again. */
    enum Shape {
        /** Its data events after the flushed one and END, no BEGIN; it had ended before the crash. */
        RESUMED_TAIL,
        /** BEGIN to END again. */
        WHOLE,
        /** Cut off at the crash (BEGIN and some events, no END), then BEGIN to END. */
        CUT_THEN_WHOLE
    }

    /**
     * One source transaction's records.
     *
     * @param sequence its number in commit order (the GTID's)
     * @param partition the Kafka partition of all its records
     * @param records BEGIN, the data events (and tombstones), END
     */
    record SourceTransaction(long sequence, int partition, List<CdcMessage> records) {
    }

    /**
     * One connector restart: the connector died after publishing {@code cutRecords} records of transaction
     * {@code cut} and restarted after record {@code flushedRecord} of transaction {@code flushed} (indices into the
     * transaction list and its records; record 0 is the BEGIN).
     */
    record Restart(int flushed, int flushedRecord, int cut, int cutRecords) {
    }

    /**
     * A transaction the topic holds again.
     *
     * @param firstEnd offset of the END of its first copy, -1 when the first copy was cut off
     * @param againFrom offset of the first record of its copy after the restart
     */
    record Resent(long sequence, int partition, Shape shape, long firstEnd, long againFrom) {
    }

    /** One record the connector publishes: index into the concatenated records, and whether it is a copy. */
    private record Out(int transaction, int record, boolean again) {
    }

    private final String topic;
    private final List<SourceTransaction> transactions;
    private final List<Restart> restarts;
    private final List<Out> output = new ArrayList<>();
    private final String bootstrap;
    /** Made by the first publish; owned like {@link #sent}. */
    private KafkaProducer<String, String> producer;
    /** One per output record, in order; written by the publishing thread until {@link #awaitPublished}. */
    private final List<Future<RecordMetadata>> sent = new ArrayList<>();
    /** Partitions whose first record Kafka acknowledged; owned like {@link #sent}. */
    private final Set<Integer> startedPartitions = new HashSet<>();
    private int published;
    private CompletableFuture<Void> rest = CompletableFuture.completedFuture(null);

    /**
     * @param bootstrap the Kafka bootstrap servers
     * @param topic the topic the connector writes
     * @param transactions every source transaction, in commit order
     * @param restarts the restarts, from {@link #plan}
     */
    UpstreamResendInjector(String bootstrap, String topic, List<SourceTransaction> transactions,
            List<Restart> restarts) {
        this.topic = topic;
        this.transactions = List.copyOf(transactions);
        this.restarts = List.copyOf(restarts);
        int[] start = new int[transactions.size() + 1];
        for (int t = 0; t < transactions.size(); t++) {
            start[t + 1] = start[t] + transactions.get(t).records().size();
        }
        int position = 0;
        int highest = 0;
        for (Restart restart : restarts) {
            int crash = start[restart.cut()] + restart.cutRecords();
            emit(start, position, crash, highest);
            highest = Math.max(highest, crash);
            position = start[restart.flushed()] + restart.flushedRecord() + 1;
        }
        emit(start, position, start[transactions.size()], highest);
        this.bootstrap = bootstrap;
    }

    private void emit(int[] start, int from, int to, int highest) {
        int t = 0;
        for (int g = from; g < to; g++) {
            while (start[t + 1] <= g) {
                t++;
            }
            output.add(new Out(t, g - start[t], g < highest));
        }
    }

    /**
     * Plans one restart per entry of {@code cutAt}, each re-sending from a flushed point {@code minSpan..maxSpan}
     * transactions before its cut transaction.
     *
     * @param cutAt where each restart's cut transaction is, as a share of the stream, increasing
     * @throws IllegalArgumentException when the stream is too short for them
     */
    static List<Restart> plan(List<SourceTransaction> transactions, Random random, double[] cutAt, int minSpan,
            int maxSpan) {
        List<Restart> plan = new ArrayList<>();
        int previousCut = -1;
        for (int k = 0; k < cutAt.length; k++) {
            int target = (int) (cutAt[k] * transactions.size());
            int flushed = target - minSpan - random.nextInt(maxSpan - minSpan + 1);
            boolean atBegin = k % 3 == 2;
            int flushedRecord = atBegin ? 0 : -1;
            while (flushedRecord < 0 && flushed > previousCut) {
                flushedRecord = dataEventFollowedByDataEvent(transactions.get(flushed).records(), random);
                if (flushedRecord < 0) {
                    flushed--;
                }
            }
            if (flushed <= previousCut || flushedRecord < 0) {
                throw new IllegalArgumentException("no room for restart " + k + " in " + transactions.size()
                        + " transactions");
            }
            int cut = target;
            boolean samePartition = k % 3 == 0;
            while (!atBegin && cut < transactions.size() - 1 && samePartition
                    != (transactions.get(cut).partition() == transactions.get(flushed).partition())) {
                cut++;
            }
            if (cut >= transactions.size() - 1) {
                throw new IllegalArgumentException("no transaction to cut for restart " + k);
            }
            int size = transactions.get(cut).records().size();
            plan.add(new Restart(flushed, flushedRecord, cut, 2 + random.nextInt(size - 2)));
            previousCut = cut;
        }
        return plan;
    }

    /** @return a data event's index whose next record is a data event too (not a tombstone or END), or -1 */
    private static int dataEventFollowedByDataEvent(List<CdcMessage> records, Random random) {
        List<Integer> candidates = new ArrayList<>();
        for (int r = 1; r + 1 < records.size() - 1; r++) {
            if (records.get(r).value() != null && records.get(r + 1).value() != null) {
                candidates.add(r);
            }
        }
        return candidates.isEmpty() ? -1 : candidates.get(random.nextInt(candidates.size()));
    }

    /**
     * Publishes the output up to the first transaction end at or after {@code fraction} of it, and waits until
     * Kafka has it (so a bounded run started next sees it).
     */
    void publishPrefix(double fraction) throws InterruptedException, ExecutionException {
        int end = (int) (fraction * output.size());
        while (end < output.size() && !endsTransaction(output.get(end - 1))) {
            end++;
        }
        publish(end);
        producer.flush();
        for (Future<RecordMetadata> future : sent) {
            future.get(); // a record Kafka refused fails here, naming the cause
        }
    }

    private boolean endsTransaction(Out out) {
        return out.record() == transactions.get(out.transaction()).records().size() - 1;
    }

    /** Publishes the rest of the output on a background thread (while the job runs). */
    void publishRestAsync() {
        rest = CompletableFuture.runAsync(() -> {
            publish(output.size());
            producer.flush();
        });
    }

    /** Waits until every record is in Kafka; then {@link #resent} and the counts can be read. */
    void awaitPublished() throws InterruptedException, ExecutionException, TimeoutException {
        rest.get(60, TimeUnit.SECONDS);
        if (published < output.size()) {
            publish(output.size());
        }
        producer.flush();
        for (Future<RecordMetadata> future : sent) {
            future.get();
        }
    }

    /**
     * Sends the output up to {@code end}. The first record of each partition is acknowledged before the next is
     * sent: a new topic's partition may still refuse it (NOT_LEADER_OR_FOLLOWER), and a later batch accepted in the
     * meantime would put the retried first one out of sequence (seen with the embedded broker).
     */
    private void publish(int end) {
        if (producer == null) {
            Properties properties = new Properties();
            properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            properties.put(ProducerConfig.ACKS_CONFIG, "all");
            properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true"); // keeps each partition's order
            producer = new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer());
        }
        for (; published < end; published++) {
            ProducerRecord<String, String> record = record(output.get(published));
            int partition = record.partition();
            Future<RecordMetadata> future = producer.send(record);
            sent.add(future);
            if (startedPartitions.add(partition)) {
                try {
                    future.get(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while publishing", e);
                } catch (ExecutionException | TimeoutException e) {
                    throw new IllegalStateException("the first record of partition " + partition
                            + " was not accepted", e);
                }
            }
        }
    }

    private ProducerRecord<String, String> record(Out out) {
        SourceTransaction transaction = transactions.get(out.transaction());
        CdcMessage record = transaction.records().get(out.record());
        String value = out.again() ? processedAgain(record.value()) : record.value();
        return new ProducerRecord<>(topic, transaction.partition(), record.key(), value);
    }

    /** @return every record the connector publishes, in order (no Kafka needed) */
    List<ProducerRecord<String, String>> records() {
        return output.stream().map(this::record).toList();
    }

    /** The record as the restarted connector writes it: a data event's envelope {@code ts_ms} is later. */
    private static String processedAgain(String value) {
        if (value == null) {
            return null;
        }
        try {
            JsonNode event = JSON.readTree(value);
            if (!event.has("op")) {
                return value; // BEGIN or END: the same bytes
            }
            return ((ObjectNode) event).put("ts_ms", event.get("ts_ms").asLong() + RESTART_DELAY_MS).toString();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a published record is not JSON: " + value, e);
        }
    }

    /** @return every transaction the topic holds again, per restart in connector order; after awaitPublished */
    List<Resent> resent() throws InterruptedException, ExecutionException {
        List<Resent> all = new ArrayList<>();
        for (Restart restart : restarts) {
            for (int t = restart.flushed(); t <= restart.cut(); t++) {
                Shape shape = t == restart.flushed() ? Shape.RESUMED_TAIL
                        : t == restart.cut() ? Shape.CUT_THEN_WHOLE : Shape.WHOLE;
                long firstEnd = -1;
                long againFrom = -1;
                int last = transactions.get(t).records().size() - 1;
                int firstRecordAgain = shape == Shape.RESUMED_TAIL ? restart.flushedRecord() + 1 : 0;
                for (int i = 0; i < output.size(); i++) {
                    Out out = output.get(i);
                    if (out.transaction() != t) {
                        continue;
                    }
                    if (!out.again() && out.record() == last) {
                        firstEnd = sent.get(i).get().offset();
                    }
                    if (out.again() && out.record() == firstRecordAgain && againFrom < 0) {
                        againFrom = sent.get(i).get().offset();
                    }
                }
                all.add(new Resent(transactions.get(t).sequence(), transactions.get(t).partition(), shape, firstEnd,
                        againFrom));
            }
        }
        return all;
    }

    /**
     * @param committed Kafka partition to the offset committed when a process was killed
     * @return the re-sent transactions whose first copy was committed then and whose copy lies after it: the next
     *     process starts between them, so only the committed source position can drop the copy
     */
    static long resentAcrossCommit(List<Resent> resent, Map<Integer, Long> committed) {
        return resent.stream().filter(r -> r.shape() != Shape.CUT_THEN_WHOLE).filter(r -> {
            Long position = committed.get(r.partition());
            return position != null && position >= r.firstEnd() && position < r.againFrom();
        }).count();
    }

    /** @return the records published again */
    long recordsAgain() {
        return output.stream().filter(Out::again).count();
    }

    /** @return one line: the restarts and what they re-sent */
    String summary(List<Resent> resent) {
        long tails = resent.stream().filter(r -> r.shape() == Shape.RESUMED_TAIL).count();
        long whole = resent.stream().filter(r -> r.shape() == Shape.WHOLE).count();
        long samePartition = restarts.stream().filter(r -> transactions.get(r.cut()).partition()
                == transactions.get(r.flushed()).partition()).count();
        return String.format(Locale.ROOT, "%d connector restarts re-sent %d transactions (%d resumed tails without "
                + "BEGIN, %d whole) and %d cut off at the crash then whole (%d in the tail's partition); %d of "
                + "%d records again", restarts.size(), tails + whole, tails, whole, restarts.size(), samePartition,
                recordsAgain(), output.size());
    }

    @Override
    public void close() {
        rest.cancel(true);
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
