package io.lockstep.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.flink.row.LoadRow;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/**
 * When {@link ChangelogRowsOperator} releases a held UPDATE_BEFORE as a delete: on its processing-time timer (the
 * harness's manual clock), before a checkpoint barrier, and at the end of input; never between an UPDATE_BEFORE and
 * the UPDATE_AFTER that arrives right after it.
 */
class ChangelogRowsOperatorTest {
    private static final RowType TYPE = (RowType) DataTypes.ROW(DataTypes.FIELD("id", DataTypes.BIGINT()),
            DataTypes.FIELD("v", DataTypes.STRING())).getLogicalType();

    private static OneInputStreamOperatorTestHarness<RowData, Tuple2<String, LoadRow>> harness()
            throws Exception {
        ChangelogRows rows = new ChangelogRows("db", "t", new RowDataJsonEncoder(TYPE, ZoneId.of("UTC")), "__op",
                new PrimaryKeySelector(TYPE, new int[] {0}), false);
        OneInputStreamOperatorTestHarness<RowData, Tuple2<String, LoadRow>> harness =
                new OneInputStreamOperatorTestHarness<>(new ChangelogRowsOperator(rows));
        harness.setProcessingTime(1_000);
        harness.open();
        return harness;
    }

    private static StreamRecord<RowData> row(RowKind kind, long id, String v) {
        return new StreamRecord<>(GenericRowData.ofKind(kind, id, StringData.fromString(v)));
    }

    private static List<String> emitted(
            OneInputStreamOperatorTestHarness<RowData, Tuple2<String, LoadRow>> harness) {
        List<String> rows = new ArrayList<>();
        harness.extractOutputValues().forEach(t -> rows.add(t.f1.getRow()));
        return rows;
    }

    @Test
    void aPairArrivingBackToBackIsOneUpsertAndTheTimerFindsNothingHeld() throws Exception {
        try (var harness = harness()) {
            harness.processElement(row(RowKind.UPDATE_BEFORE, 1, "a"));
            harness.processElement(row(RowKind.UPDATE_AFTER, 1, "b"));
            harness.setProcessingTime(1_001);

            assertThat(emitted(harness)).containsExactly("{\"id\":1,\"v\":\"b\",\"__op\":0}");
        }
    }

    @Test
    void aLoneUpdateBeforeIsADeleteOnceTheTimerRuns() throws Exception {
        try (var harness = harness()) {
            harness.processElement(row(RowKind.UPDATE_BEFORE, 1, "a"));
            assertThat(emitted(harness)).isEmpty();

            harness.setProcessingTime(1_001);

            assertThat(emitted(harness)).containsExactly("{\"id\":1,\"v\":\"a\",\"__op\":1}");
        }
    }

    @Test
    void aLoneUpdateBeforeIsADeleteBeforeTheCheckpointBarrier() throws Exception {
        try (var harness = harness()) {
            harness.processElement(row(RowKind.UPDATE_BEFORE, 1, "a"));

            harness.prepareSnapshotPreBarrier(7);

            assertThat(emitted(harness)).containsExactly("{\"id\":1,\"v\":\"a\",\"__op\":1}");
        }
    }

    @Test
    void aLoneUpdateBeforeIsADeleteAtTheEndOfInput() throws Exception {
        try (var harness = harness()) {
            harness.processElement(row(RowKind.UPDATE_BEFORE, 1, "a"));

            harness.endInput();

            assertThat(emitted(harness)).containsExactly("{\"id\":1,\"v\":\"a\",\"__op\":1}");
        }
    }
}
