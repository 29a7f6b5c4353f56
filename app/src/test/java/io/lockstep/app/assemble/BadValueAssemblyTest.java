package io.lockstep.app.assemble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.app.deadletter.DeadLetterTarget;
import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.MaxwellDecoder;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.TargetTable;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.app.schema.BadValue;
import io.lockstep.app.schema.ColumnReader;
import io.lockstep.app.schema.TargetColumn;
import io.lockstep.flink.row.LoadRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The assembler checks each row's values against the target's column types (docs/dead-letter.md, "Bad values"):
 * a source transaction with a value its column would not take unchanged goes whole to the dead letter, with table,
 * column, value and reason, and its neighbours are emitted; without a dead letter the job stops before it in one
 * line naming table, column and position, never the value.
 */
class BadValueAssemblyTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ColumnReader ORDERS = (database, table) -> List.of(
            new TargetColumn("id", "bigint(20)", false), new TargetColumn("qty", "int(11)", true),
            new TargetColumn("name", "varchar(8)", true), new TargetColumn("day", "date", true));

    private static final String OVER_LONG = "is 9 bytes long in UTF-8, over the column's 8 (column type varchar(8))";

    private final MaxwellDecoder decoder = new MaxwellDecoder();
    @TempDir
    Path dir;
    private AssemblerHarness harness;
    private long offset;

    private AssemblerHarness start(AssemblerOptions options) throws Exception {
        harness = new AssemblerHarness(new MaxwellTransactionAssembler(
                TableRouter.parse("shop.orders=dw.orders", "dw", UnknownTableMode.FAIL), options)
                .checkingColumns(ORDERS));
        return harness;
    }

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    private SourceEvent maxwell(String value) {
        SourceEvent event = decoder.decode(new SourceRecord("maxwell", 0, offset++, null, value));
        event.setRawValue(value);
        return event;
    }

    private static String row(long xid, boolean commit, String data) {
        return "{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"insert\",\"ts\":1767225600,\"xid\":" + xid
                + (commit ? ",\"commit\":true" : "") + ",\"data\":" + data + "}";
    }

    private static List<String> rows(List<LoadRow> emitted) {
        return emitted.stream().map(LoadRow::getRow).toList();
    }

    @Test
    void eachBadValueSendsItsWholeTransactionToTheDeadLetterAndTheOthersLoadUnchanged() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults()
                .withDeadLetter(DeadLetterTarget.parse("file:" + dir.resolve("letters.jsonl"))));
        String good1 = "{\"id\":1,\"qty\":5,\"name\":\"ok\",\"day\":\"2026-01-31\"}";
        String good2 = "{\"id\":6,\"qty\":-7,\"name\":\"äöü\",\"day\":\"20260101\"}";
        List<String> bad = List.of(
                "{\"id\":2,\"qty\":\"many\"}", // wrong type
                "{\"id\":3,\"qty\":3000000000}", // out of range
                "{\"id\":4,\"name\":\"ääääa\"}", // 5 characters, 9 bytes in UTF-8, over VARCHAR(8)
                "{\"id\":5,\"day\":\"2026-02-30\"}", // unparsable date
                "{\"id\":null,\"qty\":1}"); // NULL into NOT NULL

        h.send(maxwell(row(1, true, good1)));
        long xid = 10;
        for (String data : bad) {
            h.send(maxwell(row(xid, false, "{\"id\":" + xid + "}")), maxwell(row(xid, true, data)));
            xid++;
        }
        h.send(maxwell(row(20, true, good2)));

        assertThat(rows(h.takeEmitted())).as("every other row loads, nothing changed").containsExactly(good1, good2);
        List<JsonNode> letters = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("letters.jsonl"))) {
            letters.add(JSON.readTree(line));
        }
        assertThat(letters).as("each bad transaction whole: its good row and its bad one").hasSize(2 * bad.size());
        assertThat(letters).extracting(l -> l.get("reason").asText()).containsExactly(
                reason(2, "qty", "many", "is not an integer (column type int(11))"),
                reason(2, "qty", "many", "is not an integer (column type int(11))"),
                reason(4, "qty", "3000000000", "is out of range (column type int(11))"),
                reason(4, "qty", "3000000000", "is out of range (column type int(11))"),
                reason(6, "name", "ääääa", OVER_LONG),
                reason(6, "name", "ääääa", OVER_LONG),
                reason(8, "day", "2026-02-30", "is not a valid date (column type date)"),
                reason(8, "day", "2026-02-30", "is not a valid date (column type date)"),
                reason(10, "id", "null", "is NULL, but the column is NOT NULL"),
                reason(10, "id", "null", "is NULL, but the column is NOT NULL"));
        assertThat(h.keyedStateEntries()).isZero();
    }

    private static String reason(long offset, String column, String value, String why) {
        return "topic 'maxwell' partition 0 offset " + offset + ": column '" + column + "' of target table dw.orders "
                + "(source table shop.orders): value '" + value + "' " + why;
    }

    @Test
    void withoutADeadLetterABadValueStopsBeforeItsTransactionInOneLineWithoutTheValueEvenWithBadInputSkip()
            throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults().withBadInputMode(BadInputMode.SKIP));
        String good = "{\"id\":1,\"qty\":5}";
        h.send(maxwell(row(1, true, good)));

        assertThatThrownBy(() -> h.send(maxwell(row(2, false, "{\"id\":2}")),
                maxwell(row(2, true, "{\"id\":3,\"name\":\"" + "x".repeat(200) + "\"}"))))
                .isInstanceOf(BadValueException.class)
                .hasMessage("topic 'maxwell' partition 0 offset 2: column 'name' of target table dw.orders (source "
                        + "table shop.orders): the value is 200 bytes long in UTF-8, over the column's 8 (column type "
                        + "varchar(8)); nothing of its source transaction was loaded (configure --dead-letter to "
                        + "divert such transactions and go on)");
        assertThat(rows(h.takeEmitted())).containsExactly(good);
    }

    @Test
    void aLongValueIsCutInTheDeadLetterReason() {
        String reason = new BadValueException("p", "s.t", new TargetTable("d", "t"), BadValue.firstIn(
                "{\"c\":\"" + "y".repeat(300) + "\"}", Map.of("c", new TargetColumn("c", "varchar(10)", true))))
                .deadLetterReason();

        assertThat(reason).contains("value '" + "y".repeat(64) + "...(300 chars)' is 300 bytes long");
    }
}
