package io.lockstep.e2e.resend;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.e2e.resend.ResendShapes.Shape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ResendShapes} on the checked-in crash fixture and on hand-made topics of each shape. */
class ResendShapesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path FIXTURE = Path.of("..", "app", "src", "test", "resources", "debezium",
            "pg-crash-resend.jsonl");

    @Test
    void theFixtureHoldsTheShapesItsReadmeLists() throws Exception {
        List<TopicRecord> records = new ArrayList<>();
        for (String line : Files.readAllLines(FIXTURE)) {
            JsonNode r = JSON.readTree(line);
            records.add(new TopicRecord("crash.all", r.get("partition").asInt(), r.get("offset").asLong(),
                    r.get("key").isNull() ? null : r.get("key").asText(),
                    r.get("value").isNull() ? null : r.get("value").asText()));
        }
        ResendShapes shapes = ResendShapes.classify(records, 121);

        assertThat(records).hasSize(301);
        assertThat(shapes.counts()).containsEntry(Shape.RESUMED_INSIDE, 1L).containsEntry(Shape.WHOLE_RESENT, 9L)
                .containsEntry(Shape.CUT_THEN_WHOLE, 1L).containsEntry(Shape.ONCE_AFTER, 3L)
                .containsEntry(Shape.ONCE_BEFORE, 0L).containsEntry(Shape.OTHER, 0L);
        ResendShapes.Transaction resumed = shapes.of(Shape.RESUMED_INSIDE).get(0);
        // the flushed offset was the BEGIN's: the restart sends every event again, without the BEGIN
        assertThat(resumed.after().get(0).kind()).isEqualTo(TopicRecord.Kind.DATA);
        assertThat(resumed.after().get(0).totalOrder()).isEqualTo(1);
        assertThat(shapes.resentRecords()).isEqualTo(120);
    }

    @Test
    void aTransactionCutByTheCrashAndResumedFromInsideIt() {
        List<TopicRecord> records = List.of(begin(0, 7), data(1, 7, 1, 10), data(2, 7, 2, 11),
                // restart: resumed after event 1, no BEGIN
                data(3, 7, 2, 11), data(4, 7, 3, 12), end(5, 7, 3));
        ResendShapes shapes = ResendShapes.classify(records, 3);

        assertThat(shapes.transactions()).singleElement()
                .satisfies(t -> assertThat(t.shape()).isEqualTo(Shape.CUT_THEN_RESUMED));
        assertThat(shapes.resentRecords()).isEqualTo(1);
    }

    @Test
    void aResendWithOtherValuesIsNotASameTransaction() {
        List<TopicRecord> records = List.of(begin(0, 7), data(1, 7, 1, 10), end(2, 7, 1),
                begin(3, 7), data(4, 7, 1, 99), end(5, 7, 1));
        ResendShapes shapes = ResendShapes.classify(records, 3);

        assertThat(shapes.of(Shape.OTHER)).hasSize(1);
        assertThat(shapes.resentRecords()).isEqualTo(2); // BEGIN and END repeat, the event does not
    }

    @Test
    void aWholeResendAndATransactionSentOnce() {
        List<TopicRecord> records = List.of(begin(0, 7), data(1, 7, 1, 10), end(2, 7, 1),
                begin(3, 7), data(4, 7, 1, 10), end(5, 7, 1), begin(6, 8), data(7, 8, 1, 20), end(8, 8, 1));
        ResendShapes shapes = ResendShapes.classify(records, 3);

        assertThat(shapes.transactions()).extracting(ResendShapes.Transaction::shape)
                .containsExactly(Shape.WHOLE_RESENT, Shape.ONCE_AFTER);
        assertThat(shapes.resentRecords()).isEqualTo(3);
    }

    private static TopicRecord begin(long offset, int xid) {
        return new TopicRecord("t", 0, offset, null, "{\"status\":\"BEGIN\",\"id\":\"" + xid + ":1\",\"ts_ms\":"
                + offset + "}");
    }

    private static TopicRecord end(long offset, int xid, int events) {
        return new TopicRecord("t", 0, offset, null, "{\"status\":\"END\",\"id\":\"" + xid + ":90\",\"event_count\":"
                + events + ",\"ts_ms\":" + offset + "}");
    }

    private static TopicRecord data(long offset, int xid, int order, long lsn) {
        return new TopicRecord("t", 0, offset, null, "{\"op\":\"c\",\"before\":null,\"after\":{\"id\":" + lsn
                + "},\"source\":{\"lsn\":" + lsn + ",\"txId\":" + xid + ",\"table\":\"t\"},\"transaction\":{\"id\":\""
                + xid + ":" + lsn + "\",\"total_order\":" + order + ",\"data_collection_order\":" + order + "}}");
    }
}
