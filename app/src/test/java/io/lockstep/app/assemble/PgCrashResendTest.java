package io.lockstep.app.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.app.event.DebeziumDecoder;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.flink.row.LoadRow;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real Debezium 3.6.1 PostgreSQL topic across a publisher SIGKILL ({@code debezium/pg-crash-resend.jsonl}, its
 * README lists the shapes): whole re-sends, a transaction resumed inside without its BEGIN (xid 738, offsets
 * 121..158) and a transaction cut at the crash (xid 748, offsets 98..120) re-sent whole (218..281). Through the
 * decoder and the assembler, every source transaction loads exactly once, whole, in commit order.
 */
class PgCrashResendTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SOURCE = "postgresql:crash";
    /** The 14 transactions (xid) in commit order, as their END records' LSNs order them. */
    private static final List<String> COMMIT_ORDER = List.of("738", "741", "739", "740", "743", "744", "742", "747",
            "746", "745", "748", "750", "749", "751");
    /** Offset of 745's END: the last transaction whose END is in the topic before the crash. */
    private static final int LAST_END_BEFORE_CRASH = 97;

    private static List<SourceRecord> records;
    private static List<SourceEvent> events;
    /** xid to the rows of its first complete copy (BEGIN .. END), in order. */
    private static Map<String, List<String>> expectedRows;

    private AssemblerHarness harness;
    private DebeziumTransactionAssembler assembler;

    @BeforeAll
    static void readFixture() throws Exception {
        records = new ArrayList<>();
        try (InputStream in = PgCrashResendTest.class.getResourceAsStream("/debezium/pg-crash-resend.jsonl")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                JsonNode r = JSON.readTree(line);
                records.add(new SourceRecord("crash.all", r.get("partition").asInt(), r.get("offset").asLong(),
                        r.get("key").isNull() ? null : r.get("key").asText(),
                        r.get("value").isNull() ? null : r.get("value").asText()));
            }
        }
        assertThat(records).hasSize(301);
        events = decode(0);
        expectedRows = new LinkedHashMap<>();
        Map<String, List<String>> open = new LinkedHashMap<>();
        for (SourceEvent e : events) {
            if (e.getKind() == SourceEventKind.BEGIN) {
                open.put(e.getTransactionKey(), new ArrayList<>());
            } else if (e.getKind() == SourceEventKind.ROW && open.containsKey(e.getTransactionKey())) {
                open.get(e.getTransactionKey()).add(e.getRow());
            } else if (e.getKind() == SourceEventKind.END && open.containsKey(e.getTransactionKey())) {
                expectedRows.putIfAbsent(e.getTransactionKey(), open.remove(e.getTransactionKey()));
            }
        }
    }

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    private AssemblerHarness start(AssemblerOptions options, OperatorSubtaskState restored) throws Exception {
        if (harness != null) {
            harness.close();
        }
        assembler = new DebeziumTransactionAssembler(TableRouter.parse(null, "dw", UnknownTableMode.FAIL), options);
        harness = new AssemblerHarness(assembler, restored, 0);
        return harness;
    }

    private static List<SourceEvent> offsets(long from, long to) {
        return events.stream().filter(e -> e.getOffset() >= from && e.getOffset() <= to).toList();
    }

    /** @return the topic's events decoded, at the fixture's offsets plus {@code shift} */
    private static List<SourceEvent> decode(long shift) {
        DebeziumDecoder decoder = new DebeziumDecoder();
        List<SourceEvent> decoded = new ArrayList<>();
        for (SourceRecord r : records) {
            SourceEvent event = decoder.decode(new SourceRecord(r.getTopic(), r.getPartition(), r.getOffset() + shift,
                    r.getKey(), r.getValue()));
            if (event != null) {
                decoded.add(event);
            }
        }
        return decoded;
    }

    /** Emitted rows split into transactions, keyed by the txId of the end row's commit position. */
    private static Map<String, List<String>> transactions(List<LoadRow> rows) {
        Map<String, List<String>> byTxId = new LinkedHashMap<>();
        List<String> current = new ArrayList<>();
        for (LoadRow row : rows) {
            current.add(row.getRow());
            if (row.isTransactionEnd()) {
                assertThat(row.getCommitSource()).isEqualTo(SOURCE);
                String txId = CommitPosition.parse(row.getCommitPosition()).transactionId;
                assertThat(byTxId.put(txId, current)).as("transaction %s emitted once", txId).isNull();
                current = new ArrayList<>();
            } else {
                assertThat(row.getCommitSource()).isNull();
                assertThat(row.getCommitPosition()).isNull();
            }
        }
        assertThat(current).as("rows after the last transaction end").isEmpty();
        return byTxId;
    }

    @Test
    void everyTransactionLoadsOnceWholeInCommitOrderAndTheResendsAreDropped() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults().withInputResumes(true), null);

        h.send(events.toArray(SourceEvent[]::new));

        List<LoadRow> rows = h.takeEmittedWithPositions();
        Map<String, List<String>> emitted = transactions(rows);
        assertThat(emitted.keySet()).containsExactlyElementsOf(COMMIT_ORDER);
        emitted.forEach((txId, list) -> assertThat(list).as("rows of %s", txId).isEqualTo(expectedRows.get(txId)));
        // 738 resumed without BEGIN, then 741 .. 745 whole: all at or below 745's commit LSN
        assertThat(assembler.positions().resentCount()).isEqualTo(10);
        List<Long> lsns = rows.stream().filter(LoadRow::isTransactionEnd)
                .map(r -> CommitPosition.parse(r.getCommitPosition()).lsn).toList();
        assertThat(lsns).isSorted().doesNotHaveDuplicates();
        assertThat(lsns.get(lsns.size() - 1)).isEqualTo(24260472L); // END id 751:24260472
    }

    @Test
    void theWholeTopicSentTwiceLoadsEachTransactionOnce() throws Exception {
        AssemblerHarness h = start(AssemblerOptions.defaults().withInputResumes(true), null);
        h.send(events.toArray(SourceEvent[]::new));
        assertThat(transactions(h.takeEmittedWithPositions())).hasSize(14);

        h.send(decode(301).toArray(SourceEvent[]::new)); // the whole topic again, written after it

        assertThat(h.takeEmittedWithPositions()).isEmpty();
        // the second copy holds 24 ENDs (the 14 transactions, 738 and the nine whole re-sends twice): all dropped
        assertThat(assembler.positions().resentCount()).isEqualTo(10 + 24);
    }

    @Test
    void aRunSeededFromTheProgressTableDropsWhatTheTableHolds() throws Exception {
        AssemblerHarness first = start(AssemblerOptions.defaults().withInputResumes(true), null);
        first.send(offsets(0, LAST_END_BEFORE_CRASH).toArray(SourceEvent[]::new));
        List<LoadRow> firstRows = first.takeEmittedWithPositions();
        assertThat(transactions(firstRows).keySet()).containsExactlyElementsOf(COMMIT_ORDER.subList(0, 10));
        LoadRow lastEnd = firstRows.get(firstRows.size() - 1);

        // a new run without a checkpoint: the seed is what the progress table holds, read as text
        AssemblerHarness second = start(AssemblerOptions.defaults().withInputResumes(true).withCommittedPositions(
                Map.of(0, Map.of(lastEnd.getCommitSource(), lastEnd.getCommitPosition()))), null);
        second.send(offsets(LAST_END_BEFORE_CRASH + 1, 300).toArray(SourceEvent[]::new));

        Map<String, List<String>> emitted = transactions(second.takeEmittedWithPositions());
        assertThat(emitted.keySet()).containsExactly("748", "750", "749", "751");
        emitted.forEach((txId, list) -> assertThat(list).isEqualTo(expectedRows.get(txId)));
        assertThat(assembler.positions().resentCount()).isEqualTo(10);
    }

    @Test
    void theCommittedPositionsRestoreFromACheckpoint() throws Exception {
        AssemblerHarness first = start(AssemblerOptions.defaults().withInputResumes(true), null);
        first.send(offsets(0, LAST_END_BEFORE_CRASH).toArray(SourceEvent[]::new));
        first.takeEmittedWithPositions();
        OperatorSubtaskState checkpoint = first.checkpoint(1);

        AssemblerHarness restored = start(AssemblerOptions.defaults().withInputResumes(true), checkpoint);
        restored.send(offsets(LAST_END_BEFORE_CRASH + 1, 300).toArray(SourceEvent[]::new));

        assertThat(transactions(restored.takeEmittedWithPositions()).keySet())
                .containsExactly("748", "750", "749", "751");
        assertThat(assembler.positions().resentCount()).isEqualTo(10);
    }
}
