package io.lockstep.app.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.app.chaos.UpstreamResendInjector.Restart;
import io.lockstep.app.chaos.UpstreamResendInjector.SourceTransaction;
import io.lockstep.app.demo.ShopTransaction;
import io.lockstep.app.demo.ShopTransactionGenerator;
import io.lockstep.app.demo.ShopWorkload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * The records {@link UpstreamResendInjector} publishes are the shapes a restarted Debezium connector produces
 * (docs/input-formats.md, "Offsets, restarts and what is sent again"): per transaction, read in each partition's
 * order, how often its BEGIN and END come and where its second copy starts; and every second copy is the first
 * one again.
 */
class UpstreamResendInjectorTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void eachRestartResendsATailWithoutBeginWholeTransactionsAndTheCutTransactionFromItsBegin() throws Exception {
        List<SourceTransaction> transactions = new ArrayList<>();
        ShopTransactionGenerator generator = ShopCdcRecords.generator(new ShopWorkload(7, 4, 50, 5, 20));
        for (int i = 0; i < 150; i++) {
            ShopTransaction transaction = generator.next();
            transactions.add(new SourceTransaction(transaction.sequence(), transaction.partition(),
                    ShopCdcRecords.of(transaction)));
        }
        List<Restart> plan = UpstreamResendInjector.plan(transactions, new Random(3), new double[] {0.2, 0.5, 0.8}, 5, 15);
        List<ProducerRecord<String, String>> records;
        try (UpstreamResendInjector injector = new UpstreamResendInjector("localhost:9", "t", transactions, plan)) {
            records = injector.records();
        }

        assertThat(plan.get(0).flushedRecord()).isPositive();
        assertThat(partition(transactions, plan.get(0).cut())).isEqualTo(partition(transactions, plan.get(0).flushed()));
        assertThat(plan.get(1).flushedRecord()).isPositive();
        assertThat(partition(transactions, plan.get(1).cut())).isNotEqualTo(partition(transactions, plan.get(1).flushed()));
        assertThat(plan.get(2).flushedRecord()).as("flushed at a BEGIN").isZero();

        Map<String, Copies> copies = copies(records);
        int resent = 0;
        for (int t = 0; t < transactions.size(); t++) {
            Copies c = copies.get(id(transactions.get(t)));
            Restart restart = restartOf(plan, t);
            if (restart == null) {
                assertThat(c.begins + "/" + c.ends).as("transaction %d once", t).isEqualTo("1/1");
            } else if (t == restart.flushed()) {
                assertThat(c.begins + "/" + c.ends).as("resumed tail of %d", t).isEqualTo("1/2");
                String next = transactions.get(t).records().get(restart.flushedRecord() + 1).value();
                assertThat(c.firstAfterEnd).as("its second copy starts after the flushed record, without BEGIN")
                        .isEqualTo("total_order " + JSON.readTree(next).get("transaction").get("total_order"));
                resent++;
            } else if (t == restart.cut()) {
                assertThat(c.begins + "/" + c.ends).as("cut transaction %d", t).isEqualTo("2/1");
                assertThat(c.recordsBeforeSecondBegin).as("records of its cut copy").isEqualTo(restart.cutRecords());
            } else {
                assertThat(c.begins + "/" + c.ends).as("whole re-send of %d", t).isEqualTo("2/2");
                resent++;
            }
        }
        assertThat(resent).isGreaterThanOrEqualTo(3 * 5);

        Map<String, String> first = new HashMap<>();
        Map<Integer, String> previous = new HashMap<>();
        int again = 0;
        for (ProducerRecord<String, String> record : records) {
            String identity = record.partition() + " " + record.key() + " " + (record.value() == null
                    ? "tombstone after " + previous.get(record.partition()) : sameInCopies(record.value()));
            previous.put(record.partition(), identity);
            if (!first.containsKey(identity)) {
                first.put(identity, record.value());
            } else {
                again++;
                String original = first.get(identity);
                if (isData(original)) {
                    assertThat(JSON.readTree(record.value()).get("ts_ms").asLong()).as("processed later")
                            .isEqualTo(JSON.readTree(original).get("ts_ms").asLong()
                                    + UpstreamResendInjector.RESTART_DELAY_MS);
                } else {
                    assertThat(record.value()).as("BEGIN, END and tombstones: the same bytes").isEqualTo(original);
                }
            }
        }
        int total = transactions.stream().mapToInt(t -> t.records().size()).sum();
        assertThat(again).as("every record beyond the first copy is a copy").isEqualTo(records.size() - total);
        assertThat(again).isPositive();
    }

    private static int partition(List<SourceTransaction> transactions, int index) {
        return transactions.get(index).partition();
    }

    private static Restart restartOf(List<Restart> plan, int transaction) {
        return plan.stream().filter(r -> r.flushed() <= transaction && transaction <= r.cut()).findFirst()
                .orElse(null);
    }

    private static String id(SourceTransaction transaction) throws Exception {
        return JSON.readTree(transaction.records().get(0).value()).get("id").asText();
    }

    /** How one transaction's records come, in its partition's order. */
    private static final class Copies {
        int begins;
        int ends;
        /** The first record after its first END: "total_order n", "BEGIN" or "tombstone". */
        String firstAfterEnd;
        int recordsBeforeSecondBegin;
        int seen;
    }

    private static Map<String, Copies> copies(List<ProducerRecord<String, String>> records) throws Exception {
        Map<String, Copies> copies = new HashMap<>();
        Map<Integer, String> lastIdInPartition = new HashMap<>();
        for (ProducerRecord<String, String> record : records) {
            String id;
            if (record.value() == null) {
                id = lastIdInPartition.get(record.partition()); // a tombstone follows its delete
            } else {
                JsonNode value = JSON.readTree(record.value());
                id = value.has("status") ? value.get("id").asText() : value.get("transaction").get("id").asText();
            }
            lastIdInPartition.put(record.partition(), id);
            Copies c = copies.computeIfAbsent(id, k -> new Copies());
            String status = record.value() == null ? "" : JSON.readTree(record.value()).path("status").asText();
            if (c.ends == 1 && c.firstAfterEnd == null) {
                c.firstAfterEnd = record.value() == null ? "tombstone" : status.isEmpty()
                        ? "total_order " + JSON.readTree(record.value()).get("transaction").get("total_order") : status;
            }
            if (status.equals("BEGIN") && ++c.begins == 2) {
                c.recordsBeforeSecondBegin = c.seen;
            }
            if (status.equals("END")) {
                c.ends++;
            }
            c.seen++;
        }
        return copies;
    }

    private static boolean isData(String value) throws Exception {
        return value != null && JSON.readTree(value).has("op");
    }

    /** @return the value without what a restarted connector writes differently (a data event's ts_ms) */
    private static String sameInCopies(String value) throws Exception {
        if (!isData(value)) {
            return value;
        }
        ObjectNode event = (ObjectNode) JSON.readTree(value);
        event.remove("ts_ms");
        return event.toString();
    }
}
