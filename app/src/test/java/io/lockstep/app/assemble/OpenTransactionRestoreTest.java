package io.lockstep.app.assemble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.app.deadletter.DeadLetterTarget;
import io.lockstep.app.event.DebeziumDecoder;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.app.testing.DebeziumMessages;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.OperatorSnapshotUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkpoint of the Debezium assembler taken in the middle of a source transaction restores: its keyed state
 * ({@code open-transaction}, {@code buffered-rows}, {@code dead-letter-events}) and its time-bound timer come back,
 * and the transaction finishes as if the job had never stopped. The checkpoint file
 * ({@value #FIXTURE}) was written by the code of an earlier release, so a change of a state name, a state type or a
 * class whose name a serializer writes into the checkpoint fails here. It holds, on source partition 3, the BEGIN
 * of one transaction and its first two data events (a row of {@code shop.orders} with non-ASCII text, a row of
 * {@code shop.order_items}), with a dead letter configured.
 *
 * <p>Regenerate the file only on purpose (a deliberate, documented state break):
 * {@code mvn -pl app test -Dtest=OpenTransactionRestoreTest -Dlockstep.fixtures.regenerate=true}, then commit it.
 */
class OpenTransactionRestoreTest {

    /** The checkpoint written by an earlier release, under {@code app/src/test/resources}. */
    static final String FIXTURE = "state/assembler-open-transaction-flink-1.20.snapshot";
    private static final int PARTITION = 3;
    private static final String TX = "0e4f6c3a-7b1d-11ef-9a2b-0242ac120002:1042";
    private static final String ORDER = "{\"order_id\":7,\"customer\":\"Zoë Ångström\",\"note\":\"注文 ✓ 🚚\"}";
    private static final String ITEM_1 = "{\"order_id\":7,\"line_no\":1,\"amount\":\"10.00\"}";
    private static final String ITEM_2 = "{\"order_id\":7,\"line_no\":2,\"amount\":\"20.00\"}";
    /** The events in the checkpoint, at offsets 0, 1 and 2. */
    private static final List<String> BEFORE_CHECKPOINT = List.of(DebeziumMessages.beginJson(TX),
            DebeziumMessages.dataJson("shop", "orders", "c", "null", ORDER, TX, 1),
            DebeziumMessages.dataJson("shop", "order_items", "c", "null", ITEM_1, TX, 2));
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DebeziumDecoder DECODER = new DebeziumDecoder();

    @TempDir
    Path dir;
    private AssemblerHarness harness;

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void theOpenTransactionOfAnEarlierReleaseFinishesAfterTheRestore() throws Exception {
        AssemblerHarness h = restore(OperatorSnapshotUtil.readStateHandle(fixture().toString()));
        assertThat(h.keyedStateEntries()).as("open transaction, buffered rows, dead letter events").isEqualTo(3);
        assertThat(h.processingTimeTimers()).as("the time bound of the open transaction").isEqualTo(1);

        finishTransaction(h);
    }

    @Test
    void theKeptEventsOfAnEarlierReleaseGoToTheDeadLetterWithTheirTransaction() throws Exception {
        AssemblerHarness h = restore(OperatorSnapshotUtil.readStateHandle(fixture().toString()));
        String audit = DebeziumMessages.dataJson("shop", "audit", "c", "null", "{\"id\":1}", TX, 3);
        String end = DebeziumMessages.endJson(TX, 3, Map.of("shop.orders", 1L, "shop.order_items", 1L,
                "shop.audit", 1L));

        h.send(event(3, audit), event(4, end));

        assertThat(h.takeEmittedWithPositions()).isEmpty();
        List<String> values = new ArrayList<>(BEFORE_CHECKPOINT);
        values.add(audit);
        values.add(end);
        List<JsonNode> letters = deadLetters();
        assertThat(letters).extracting(r -> r.get("value").asText()).containsExactlyElementsOf(values);
        for (int i = 0; i < letters.size(); i++) {
            JsonNode letter = letters.get(i);
            assertThat(letter.get("topic").asText()).isEqualTo(DebeziumMessages.TOPIC);
            assertThat(letter.get("partition").asInt()).isEqualTo(PARTITION);
            assertThat(letter.get("offset").asLong()).isEqualTo(i);
            assertThat(letter.get("transaction").asText()).isEqualTo(TX);
            assertThat(letter.get("event").asInt()).isEqualTo(i + 1);
            assertThat(letter.get("events").asInt()).isEqualTo(5);
            assertThat(letter.get("reason").asText()).isEqualTo("topic 'oltp.all' partition 3 offset 3: source table "
                    + "'shop.audit' is not in the table map (mapped: shop.orders, shop.order_items); map it, or skip "
                    + "unknown tables");
        }
        assertThat(h.keyedStateEntries()).isZero();
        assertThat(h.processingTimeTimers()).isZero();
    }

    /**
     * Today's code writes the same open transaction and restores it alike (this also keeps the generator below
     * working); with {@code -Dlockstep.fixtures.regenerate=true} the checkpoint is written as the fixture.
     */
    @Test
    void aCheckpointTakenNowRestoresAlike() throws Exception {
        OperatorSubtaskState checkpoint = openTransactionCheckpoint();
        if (Boolean.getBoolean("lockstep.fixtures.regenerate")) {
            Path file = Path.of("src/test/resources").resolve(FIXTURE);
            Files.createDirectories(file.getParent());
            OperatorSnapshotUtil.writeStateHandle(checkpoint, file.toString());
        }

        finishTransaction(restore(checkpoint));
    }

    /** Sends the BEGIN and the first two data events to a fresh assembler and checkpoints it. */
    private OperatorSubtaskState openTransactionCheckpoint() throws Exception {
        AssemblerHarness writer = new AssemblerHarness(assembler());
        try {
            for (int offset = 0; offset < BEFORE_CHECKPOINT.size(); offset++) {
                writer.send(event(offset, BEFORE_CHECKPOINT.get(offset)));
            }
            assertThat(writer.takeEmittedWithPositions()).isEmpty();
            return writer.checkpoint(1);
        } finally {
            writer.close();
        }
    }

    /**
     * Sends a replay of the second data event (dropped: the restored transaction has seen its total_order), the
     * last data event and the END; the three rows come out with the END's position, and no state is left.
     */
    private static void finishTransaction(AssemblerHarness h) throws Exception {
        h.send(event(3, BEFORE_CHECKPOINT.get(2)),
                event(4, DebeziumMessages.dataJson("shop", "order_items", "c", "null", ITEM_2, TX, 3)),
                event(5, DebeziumMessages.endJson(TX, 3, Map.of("shop.orders", 1L, "shop.order_items", 2L))));

        assertThat(h.takeEmittedWithPositions())
                .extracting(r -> r.getDatabase(), r -> r.getTable(), r -> r.getRow(), r -> r.isTransactionEnd(),
                        r -> r.getSourcePartition(), r -> r.getSource(), r -> r.getSourcePosition())
                .containsExactly(
                        tuple("dw", "orders", ORDER, false, PARTITION, DebeziumMessages.TOPIC, 5L),
                        tuple("dw", "order_items", ITEM_1, false, PARTITION, DebeziumMessages.TOPIC, 5L),
                        tuple("dw", "order_items", ITEM_2, true, PARTITION, DebeziumMessages.TOPIC, 5L));
        assertThat(h.keyedStateEntries()).as("only the committed GTID of the commit source is left").isOne();
        assertThat(h.processingTimeTimers()).isZero();
    }

    private AssemblerHarness restore(OperatorSubtaskState checkpoint) throws Exception {
        harness = new AssemblerHarness(assembler(), checkpoint, 0);
        return harness;
    }

    /** As {@code lockstep run} builds it with a table map, {@code --unknown-table fail} and a dead letter. */
    private TransactionAssembler assembler() {
        return new DebeziumTransactionAssembler(
                TableRouter.parse("shop.orders=dw.orders,shop.order_items=dw.order_items", "dw",
                        UnknownTableMode.FAIL),
                AssemblerOptions.defaults().withDeadLetter(DeadLetterTarget.parse("file:" + dir.resolve("dead.jsonl"))));
    }

    /** Decodes as the job's decode step does with a dead letter: the event keeps its raw text. */
    private static SourceEvent event(long offset, String value) {
        SourceEvent event = DECODER.decode(
                new SourceRecord(DebeziumMessages.TOPIC, PARTITION, offset, null, value));
        event.setRawValue(value);
        return event;
    }

    private List<JsonNode> deadLetters() throws Exception {
        List<JsonNode> records = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("dead.jsonl"))) {
            records.add(JSON.readTree(line));
        }
        return records;
    }

    private static Path fixture() throws Exception {
        return Path.of(OpenTransactionRestoreTest.class.getClassLoader().getResource(FIXTURE).toURI());
    }
}
