package io.lockstep.app.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.app.deadletter.DeadLetterTarget;
import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.BadSourceEventException;
import io.lockstep.app.event.MaxwellDecoder;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.flink.row.LoadRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The assembler with a dead letter (a file): a transaction holding an unusable event is written whole and never
 * emitted, from its first event to its end, its next transaction's start or its time bound; the transactions around
 * it are emitted as usual and no state is left behind.
 */
class DeadLetterAssemblyTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final MaxwellDecoder decoder = new MaxwellDecoder();
    @TempDir
    Path dir;
    private AssemblerHarness harness;
    private long offset;

    private AssemblerHarness start(AssemblerOptions options) throws Exception {
        harness = new AssemblerHarness(new MaxwellTransactionAssembler(
                TableRouter.parse("shop.orders=dw.orders", "dw", UnknownTableMode.FAIL),
                options.withDeadLetter(DeadLetterTarget.parse("file:" + letters()))));
        return harness;
    }

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    private Path letters() {
        return dir.resolve("letters.jsonl");
    }

    /** Decodes as the job's decode step does with a dead letter: the event keeps its raw text. */
    private SourceEvent maxwell(String value) {
        SourceRecord record = new SourceRecord("maxwell", 0, offset++, null, value);
        SourceEvent event;
        try {
            event = decoder.decode(record);
        } catch (BadSourceEventException e) {
            event = SourceEvent.at(SourceEventKind.UNDECODABLE, record);
            event.setRow(e.getMessage());
        }
        event.setRawValue(value);
        return event;
    }

    private static String row(String table, long xid, boolean commit, int id) {
        return "{\"database\":\"shop\",\"table\":\"" + table + "\",\"type\":\"insert\",\"ts\":1767225600,\"xid\":"
                + xid + (commit ? ",\"commit\":true" : "") + ",\"data\":{\"id\":" + id + "}}";
    }

    private List<JsonNode> written() throws Exception {
        List<JsonNode> records = new ArrayList<>();
        if (Files.exists(letters())) {
            for (String line : Files.readAllLines(letters())) {
                records.add(JSON.readTree(line));
            }
        }
        return records;
    }

    private static List<Integer> ids(List<LoadRow> rows) {
        return rows.stream().map(r -> Integer.parseInt(r.getRow().replaceAll("\\D", ""))).toList();
    }

    @Test
    void aTransactionWithARowOfAnUnmappedTableIsWrittenWholeAndTheOthersAreEmitted() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());
        List<String> bad = List.of(row("orders", 2, false, 20), row("audit", 2, false, 21), row("orders", 2, true, 22));

        h.send(maxwell(row("orders", 1, true, 10)));
        for (String value : bad) {
            h.send(maxwell(value));
        }
        h.send(maxwell(row("orders", 3, true, 30)));

        assertThat(ids(h.takeEmitted())).containsExactly(10, 30);
        List<JsonNode> records = written();
        assertThat(records).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(records.get(i).get("value").asText()).isEqualTo(bad.get(i));
            assertThat(records.get(i).get("offset").asLong()).isEqualTo(1 + i);
            assertThat(records.get(i).get("transaction").asText()).isEqualTo("2");
            assertThat(records.get(i).get("reason").asText()).isEqualTo("topic 'maxwell' partition 0 offset 2: "
                    + "source table 'shop.audit' is not in the table map (mapped: shop.orders); map it, or skip "
                    + "unknown tables");
        }
        assertThat(h.keyedStateEntries()).isZero();
    }

    @Test
    void aRowOverTheSizeBoundSendsItsTransactionToTheDeadLetterEvenWhenBadInputIsSkipped() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults().withMaxSizeBytes(40)
                .withBadInputMode(BadInputMode.SKIP));
        String big = "{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"insert\",\"ts\":1,\"xid\":2,"
                + "\"commit\":true,\"data\":{\"id\":21,\"note\":\"" + "x".repeat(100) + "\"}}";

        h.send(maxwell(row("orders", 2, false, 20)), maxwell(big), maxwell(row("orders", 3, true, 30)));

        assertThat(ids(h.takeEmitted())).containsExactly(30);
        List<JsonNode> records = written();
        assertThat(records).extracting(r -> r.get("value").asText()).containsExactly(row("orders", 2, false, 20), big);
        assertThat(records.get(0).get("reason").asText()).startsWith("topic 'maxwell' partition 0 offset 1: a row of "
                + "table shop.orders is ")
                .endsWith(" bytes, over the size limit of 40 bytes (--max-transaction-bytes)");
    }

    @Test
    void aMarkedTransactionWithoutCommitRowIsWrittenWhenTheNextOneStarts() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());
        String cutOff = "{\"database\":\"shop\",\"table\":\"orders\",\"xid\":2,\"commit\":true,\"data\":";

        h.send(maxwell(row("orders", 2, false, 20)), maxwell(cutOff), maxwell(row("orders", 3, false, 30)));
        assertThat(written()).extracting(r -> r.get("value").asText()).containsExactly(row("orders", 2, false, 20),
                cutOff);
        h.send(maxwell(row("orders", 3, true, 31)));

        assertThat(ids(h.takeEmitted())).containsExactly(30, 31);
        assertThat(written()).hasSize(2);
    }

    @Test
    void aMarkedTransactionStillOpenAtTheTimeBoundIsWritten() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults().withMaxOpenMs(1_000));

        h.send(maxwell(row("orders", 2, false, 20)), maxwell(row("audit", 2, false, 21)));
        assertThat(written()).isEmpty();
        h.advanceTo(1_000);

        List<JsonNode> records = written();
        assertThat(records).hasSize(2);
        assertThat(records.get(0).get("reason").asText()).endsWith("; the transaction was still open at the time "
                + "bound of 1000 ms");
        assertThat(h.takeEmitted()).isEmpty();
        assertThat(h.keyedStateEntries()).isZero();
    }

    @Test
    void anUndecodableEventOutsideAnyTransactionIsWrittenAlone() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());

        h.send(maxwell("not json"), maxwell(row("orders", 3, true, 30)));

        assertThat(ids(h.takeEmitted())).containsExactly(30);
        List<JsonNode> records = written();
        assertThat(records).hasSize(1);
        assertThat(records.get(0).get("transaction").isNull()).isTrue();
        assertThat(records.get(0).get("events").asInt()).isEqualTo(1);
        assertThat(records.get(0).get("value").asText()).isEqualTo("not json");
        assertThat(records.get(0).get("reason").asText()).startsWith("topic 'maxwell' partition 0 offset 0: ");
    }

    @Test
    void aRowThatIsNotAJsonObjectSendsItsTransactionToTheDeadLetter() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults());
        String notAnObject = "{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"insert\",\"ts\":1,\"xid\":2,"
                + "\"commit\":true,\"data\":[21]}";

        h.send(maxwell(row("orders", 2, false, 20)), maxwell(notAnObject), maxwell(row("orders", 3, true, 30)));

        assertThat(ids(h.takeEmitted())).containsExactly(30);
        List<JsonNode> records = written();
        assertThat(records).extracting(r -> r.get("value").asText()).containsExactly(row("orders", 2, false, 20),
                notAnObject);
        assertThat(records.get(0).get("reason").asText()).startsWith("topic 'maxwell' partition 0 offset 1: ")
                .endsWith("missing or non-object field 'data'");
    }
}
