package io.lockstep.app.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.testing.Samples;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MaxwellDecoderTest {

    private final MaxwellDecoder decoder = new MaxwellDecoder();

    private SourceEvent decode(long offset, String key, String value) {
        return decoder.decode(new SourceRecord("maxwell", 2, offset, key, value));
    }

    @Test
    void sampleFileDecodesEveryRowWithItsTransactionMarkers() throws Exception {
        List<String> lines = Samples.lines(Samples.MAXWELL);
        List<SourceEvent> events = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            events.add(decode(i, null, lines.get(i)));
        }

        assertThat(events).hasSize(20);
        assertThat(events).extracting(SourceEvent::getTransactionId).containsExactly(
                "7125", "7125", "7125", "7125", "7125", "7125", "7125", "7125", "7125",
                "7152", "7169", "7186", "7201", "7216", "7235", "7250", "7291", "7291", "7322", "7322");
        List<Integer> commitIndexes = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i).isCommit()) {
                commitIndexes.add(i);
            }
        }
        assertThat(commitIndexes).containsExactly(8, 9, 10, 11, 12, 13, 14, 15, 17, 19);
        assertThat(events).allSatisfy(e -> {
            assertThat(e.getKind()).isEqualTo(SourceEventKind.ROW);
            assertThat(e.dataCollection()).isEqualTo("test.product");
            assertThat(e.isStandalone()).isFalse();
            assertThat(e.getPreviousKeyDeleteRow()).isNull();
            assertThat(e.getTopic()).isEqualTo("maxwell");
            assertThat(e.getPartition()).isEqualTo(2);
        });
        assertThat(events).extracting(SourceEvent::isDelete).containsExactly(
                false, false, false, false, false, false, false, false, false,
                false, false, false, false, false, false, true, false, false, true, true);

        SourceEvent first = events.get(0);
        assertThat(first.getOffset()).isZero();
        assertThat(first.getTransactionKey()).isEqualTo("7125");
        assertThat(first.getRow())
                .isEqualTo("{\"id\":101,\"name\":\"scooter\",\"description\":\"Small 2-wheel scooter\",\"weight\":3.14}");
        // update: data is the after-image; old (changed columns only) does not touch the key
        assertThat(events.get(9).getRow())
                .isEqualTo("{\"id\":106,\"name\":\"hammer\",\"description\":\"18oz carpenter hammer\",\"weight\":1.0}");
        // delete: data is the before-image, loaded with __op = 1
        assertThat(events.get(15).getRow()).isEqualTo(
                "{\"id\":111,\"name\":\"scooter\",\"description\":\"Big 2-wheel scooter \",\"weight\":5.17,\"__op\":1}");
        assertThat(events.get(15).getOffset()).isEqualTo(15);
    }

    @Test
    void updateThatChangesTheKeyDeletesTheOldKeyFirst() {
        String value = "{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"update\",\"xid\":9,\"commit\":true,"
                + "\"data\":{\"order_id\":7,\"status\":\"NEW\"},\"old\":{\"order_id\":6},"
                + "\"primary_key_columns\":[\"order_id\"]}";

        SourceEvent event = decode(4, null, value);

        assertThat(event.getPreviousKeyDeleteRow()).isEqualTo("{\"order_id\":6,\"status\":\"NEW\",\"__op\":1}");
        assertThat(event.getRow()).isEqualTo("{\"order_id\":7,\"status\":\"NEW\"}");
        assertThat(event.isDelete()).isFalse();
        assertThat(event.sinkRowCount()).isEqualTo(2);
    }

    @Test
    void keyColumnsComeFromTheMaxwellRecordKeyWhenTheRowDoesNotNameThem() {
        String value = "{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"update\",\"xid\":9,\"commit\":true,"
                + "\"data\":{\"order_id\":7,\"status\":\"PAID\"},\"old\":{\"order_id\":6,\"status\":\"NEW\"}}";
        String key = "{\"database\":\"shop\",\"table\":\"orders\",\"pk.order_id\":7}";

        assertThat(decode(1, key, value).getPreviousKeyDeleteRow())
                .isEqualTo("{\"order_id\":6,\"status\":\"NEW\",\"__op\":1}");
        assertThat(decode(2, null, value).getPreviousKeyDeleteRow()).isNull();
        assertThat(new MaxwellDecoder(Map.of("shop.orders", List.of("order_id")))
                .decode(new SourceRecord("maxwell", 0, 3, null, value)).getPreviousKeyDeleteRow())
                .isEqualTo("{\"order_id\":6,\"status\":\"NEW\",\"__op\":1}");
    }

    @Test
    void updateOfNonKeyColumnsIsAPlainUpsert() {
        String value = "{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"update\",\"xid\":9,"
                + "\"data\":{\"order_id\":7,\"status\":\"PAID\"},\"old\":{\"status\":\"NEW\"},"
                + "\"primary_key_columns\":[\"order_id\"]}";

        SourceEvent event = decode(0, null, value);

        assertThat(event.getPreviousKeyDeleteRow()).isNull();
        assertThat(event.isCommit()).isFalse();
        assertThat(event.getRow()).isEqualTo("{\"order_id\":7,\"status\":\"PAID\"}");
    }

    @Test
    void aTableAlterCarriesTheColumnsOfDefAndTheColumnsMissingFromOld() {
        SourceEvent change = decode(0, null, "{\"type\":\"table-alter\",\"database\":\"shop\",\"table\":\"t\","
                + "\"sql\":\"ALTER TABLE t ADD note TEXT, DROP legacy\","
                + "\"old\":{\"columns\":[{\"type\":\"int\",\"name\":\"id\",\"signed\":false},"
                + "{\"type\":\"varchar\",\"name\":\"legacy\"}]},"
                + "\"def\":{\"columns\":[{\"type\":\"int\",\"name\":\"id\",\"signed\":false},"
                + "{\"type\":\"decimal\",\"name\":\"total\",\"precision\":12,\"scale\":2},"
                + "{\"type\":\"text\",\"name\":\"note\"}]}}");

        assertThat(change.getSchemaColumns()).isEqualTo("id\tint unsigned\ntotal\tdecimal(12,2)\nnote\ttext");
        assertThat(change.getDroppedColumns()).isEqualTo("legacy");
    }

    @Test
    void bootstrapRowsAreStandaloneMarkersDecodeToNothingAndDdlToASchemaChange() {
        SourceEvent row = decode(0, null, "{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"bootstrap-insert\","
                + "\"ts\":1,\"data\":{\"order_id\":1}}");
        assertThat(row.isStandalone()).isTrue();
        assertThat(row.getRow()).isEqualTo("{\"order_id\":1}");

        assertThat(decode(1, null, "{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"bootstrap-start\","
                + "\"ts\":1,\"data\":{}}")).isNull();
        SourceEvent change = decode(2, null, "{\"type\":\"table-alter\",\"database\":\"shop\",\"table\":\"t\","
                + "\"sql\":\"ALTER TABLE t ADD note TEXT\",\"def\":{}}");
        assertThat(change.getKind()).isEqualTo(SourceEventKind.SCHEMA_CHANGE);
        assertThat(change.dataCollection()).isEqualTo("shop.t");
        assertThat(change.getRow()).isEqualTo("ALTER TABLE t ADD note TEXT");
        assertThat(decode(3, null, null)).isNull();
    }

    @Test
    void commitWithoutXidIsATransactionOfItsOwnKind() {
        SourceEvent event = decode(0, null,
                "{\"database\":\"shop\",\"table\":\"t\",\"type\":\"insert\",\"commit\":true,\"data\":{\"id\":1}}");

        assertThat(event.getTransactionId()).isNull();
        assertThat(event.isCommit()).isTrue();
    }

    @Test
    void badInputNamesThePositionAndNeverTheRowContent() {
        assertThatThrownBy(() -> decode(3, null, "{\"database\":\"shop\",\"secret-value\"}"))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessage("topic 'maxwell' partition 2 offset 3: malformed JSON in the message value at line 1 column 34")
                .message().doesNotContain("secret");
        assertThatThrownBy(() -> decode(3, null, "{\"payload\":{\"op\":\"c\",\"after\":{\"x\":1}}}"))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessageContaining("missing field 'type' of a Maxwell event")
                .hasMessageEndingWith("use --format debezium");
        assertThatThrownBy(() -> decode(4, null, "[1,2]"))
                .hasMessage("topic 'maxwell' partition 2 offset 4: the message value is not a JSON object");
        assertThatThrownBy(() -> decode(5, null,
                "{\"database\":\"shop\",\"table\":\"t\",\"type\":\"insert\",\"data\":{\"card\":\"4111-secret\"}}"))
                .hasMessageNotContaining("4111").hasMessage("topic 'maxwell' partition 2 offset 5: Maxwell row has neither 'xid' nor 'commit'; "
                        + "transactions cannot be found (set output_commit_info=true)");
        assertThatThrownBy(() -> decode(6, null, "{\"database\":\"shop\",\"table\":\"t\",\"type\":\"insert\",\"xid\":1}"))
                .hasMessage("topic 'maxwell' partition 2 offset 6: missing or non-object field 'data'");
        assertThatThrownBy(() -> decode(7, null, "{\"table\":\"t\",\"type\":\"insert\",\"xid\":1,\"data\":{}}"))
                .hasMessage("topic 'maxwell' partition 2 offset 7: missing or non-text field 'database'");
        assertThatThrownBy(() -> decode(8, null,
                "{\"database\":\"shop\",\"table\":\"t\",\"type\":\"upsert\",\"xid\":1,\"data\":{}}"))
                .hasMessage("topic 'maxwell' partition 2 offset 8: unsupported Maxwell type 'upsert' on table shop.t");
        assertThatThrownBy(() -> decode(9, null,
                "{\"database\":\"shop\",\"table\":\"t\",\"type\":\"insert\",\"xid\":1,\"commit\":\"yes\",\"data\":{}}"))
                .hasMessage("topic 'maxwell' partition 2 offset 9: field 'commit' is not a boolean");
    }
}
