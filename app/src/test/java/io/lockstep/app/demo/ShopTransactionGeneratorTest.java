package io.lockstep.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.app.demo.ShopChange.Op;
import io.lockstep.app.demo.ShopTransaction.CdcMessage;
import io.lockstep.app.event.DebeziumDecoder;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import io.lockstep.app.event.SourceRecord;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The shop workload: deterministic per seed, invariants kept at every transaction boundary, valid Debezium. */
class ShopTransactionGeneratorTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T07:00:00Z"), ZoneOffset.UTC);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ShopTransactionGenerator generator(long seed) {
        return new ShopTransactionGenerator(new ShopWorkload(seed, 2, 50, 100, 300), CLOCK);
    }

    @Test
    void theSameSeedGivesTheSameTransactionsAndState() {
        ShopTransactionGenerator first = generator(42);
        ShopTransactionGenerator second = generator(42);
        ShopTransactionGenerator other = generator(43);
        List<ShopTransaction> firstRun = new ArrayList<>();
        List<ShopTransaction> secondRun = new ArrayList<>();
        List<ShopTransaction> otherRun = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            firstRun.add(first.next());
            secondRun.add(second.next());
            otherRun.add(other.next());
        }
        assertThat(secondRun).isEqualTo(firstRun);
        assertThat(second.expectedState()).isEqualTo(first.expectedState());
        assertThat(otherRun).isNotEqualTo(firstRun);
        assertThat(other.expectedState()).isNotEqualTo(first.expectedState());
        assertThat(first.generatedTransactions()).isEqualTo(500);
    }

    @Test
    void invariantsHoldAfterEveryTransactionAndEveryKindOccurs() {
        ShopTransactionGenerator generator = generator(7);
        Set<ShopTransactionKind> kinds = EnumSet.noneOf(ShopTransactionKind.class);
        Set<Integer> tableCounts = new java.util.TreeSet<>();
        int largestTransaction = 0;
        for (int i = 0; i < 1_500; i++) {
            ShopTransaction transaction = generator.next();
            assertThat(ShopInvariants.check(generator.liveState()))
                    .as("violations after transaction %d (%s)", transaction.sequence(), transaction.kind())
                    .isEmpty();
            kinds.add(transaction.kind());
            tableCounts.add(transaction.tablesTouched().size());
            largestTransaction = Math.max(largestTransaction, transaction.changes().size());
        }
        assertThat(kinds).containsExactlyInAnyOrder(ShopTransactionKind.values());
        assertThat(tableCounts).containsExactly(1, 2, 3, 4);
        assertThat(largestTransaction).isBetween(101, 301);
        ShopState state = generator.expectedState();
        assertThat(state.rowCount(ShopSchema.CUSTOMERS)).isEqualTo(50);
        assertThat(state.rowCount(ShopSchema.ORDERS)).isGreaterThan(100);
        assertThat(state.rowCount(ShopSchema.PAYMENTS)).isGreaterThan(100);
    }

    @Test
    void aTransactionTouchesOnlyItsCustomersRowsAndGoesToItsCustomersPartition() {
        ShopTransactionGenerator generator = generator(11);
        Map<Long, Long> orderCustomer = new LinkedHashMap<>();
        Set<Integer> partitions = new java.util.TreeSet<>();
        for (int i = 0; i < 1_000; i++) {
            ShopTransaction transaction = generator.next();
            assertThat(transaction.partition()).isEqualTo(generator.partitionOf(transaction.customerId()));
            partitions.add(transaction.partition());
            for (ShopChange change : transaction.changes()) {
                Map<String, Object> image = change.loadedImage();
                switch (change.table().name()) {
                    case "customers" -> assertThat(image.get("customer_id")).isEqualTo(transaction.customerId());
                    case "orders" -> {
                        assertThat(image.get("customer_id")).isEqualTo(transaction.customerId());
                        orderCustomer.put((Long) image.get("order_id"), transaction.customerId());
                    }
                    default -> assertThat(orderCustomer.get((Long) image.get("order_id")))
                            .isEqualTo(transaction.customerId());
                }
            }
        }
        assertThat(partitions).containsExactly(0, 1);
    }

    @Test
    void messagesAreDebeziumTransactionsThatTheDecoderReads() throws Exception {
        ShopTransactionGenerator generator = generator(5);
        DebeziumDecoder decoder = new DebeziumDecoder();
        long offset = 0;
        for (int i = 0; i < 300; i++) {
            ShopTransaction transaction = generator.next();
            List<CdcMessage> messages = transaction.messages();
            long deletes = transaction.changes().stream().filter(c -> c.op() == Op.DELETE).count();
            assertThat(messages).hasSize(transaction.changes().size() + (int) deletes + 2);

            SourceEvent begin = decoder.decode(record(messages.get(0), offset++));
            assertThat(begin.getKind()).isEqualTo(SourceEventKind.BEGIN);
            assertThat(begin.getTransactionId()).isEqualTo(transaction.id());
            assertThat(JSON.readTree(messages.get(0).key()).get("id").asText()).isEqualTo(transaction.id());

            Map<String, Long> perTable = new LinkedHashMap<>();
            int next = 1;
            for (int c = 0; c < transaction.changes().size(); c++) {
                ShopChange change = transaction.changes().get(c);
                CdcMessage message = messages.get(next++);
                SourceEvent event = decoder.decode(record(message, offset++));
                assertThat(event.getKind()).isEqualTo(SourceEventKind.ROW);
                assertThat(event.getTransactionId()).isEqualTo(transaction.id());
                assertThat(event.getTotalOrder()).isEqualTo(c + 1);
                assertThat(event.getSourceDatabase() + "." + event.getSourceTable())
                        .isEqualTo(change.table().sourceName());
                assertThat(event.isDelete()).isEqualTo(change.op() == Op.DELETE);
                JsonNode key = JSON.readTree(message.key());
                List<String> keyFields = new ArrayList<>();
                key.fieldNames().forEachRemaining(keyFields::add);
                assertThat(keyFields).isEqualTo(change.table().keyColumns());
                ShopState replayed = new ShopState();
                replayed.applyLoadRow(change.table().name(), event.getRow());
                if (change.op() == Op.DELETE) {
                    assertThat(JSON.readTree(event.getRow()).get("__op").asInt()).isEqualTo(1);
                } else {
                    assertThat(replayed.get(change.table(), change.table().keyOf(change.after())))
                            .isEqualTo(change.after());
                }
                perTable.merge(change.table().sourceName(), 1L, Long::sum);
                if (change.op() == Op.DELETE) {
                    CdcMessage tombstone = messages.get(next++);
                    assertThat(tombstone.key()).isEqualTo(message.key());
                    assertThat(tombstone.value()).isNull();
                    assertThat(decoder.decode(record(tombstone, offset++))).isNull();
                }
            }
            assertThat(next).isEqualTo(messages.size() - 1);

            SourceEvent end = decoder.decode(record(messages.get(messages.size() - 1), offset++));
            assertThat(end.getKind()).isEqualTo(SourceEventKind.END);
            assertThat(end.getEventCount()).isEqualTo(transaction.changes().size());
            assertThat(end.getTableEventCounts()).isEqualTo(perTable);
        }
    }

    @Test
    void sourceTimestampsComeFromTheClockAndRowValuesDoNot() throws Exception {
        Clock later = Clock.offset(CLOCK, java.time.Duration.ofHours(3));
        ShopTransaction atNow = generator(9).next();
        ShopTransaction atLater = new ShopTransactionGenerator(new ShopWorkload(9, 2, 50, 100, 300), later).next();
        assertThat(atLater.changes()).isEqualTo(atNow.changes());
        JsonNode end = JSON.readTree(atLater.messages().get(atLater.messages().size() - 1).value());
        assertThat(end.get("ts_ms").asLong()).isEqualTo(later.millis()).isEqualTo(atLater.commitTimeMs());
        JsonNode data = JSON.readTree(atNow.messages().get(1).value());
        assertThat(data.get("ts_ms").asLong()).isEqualTo(CLOCK.millis());
        assertThat(data.get("source").get("gtid").asText()).isEqualTo(atNow.id());
        assertThat(atNow.id()).matches("[0-9a-f-]{36}:1");
    }

    private static SourceRecord record(CdcMessage message, long offset) {
        return new SourceRecord("shop", 0, offset, message.key(), message.value());
    }
}
