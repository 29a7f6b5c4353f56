package io.lockstep.app.assemble;

import static io.lockstep.app.assemble.AssemblerHarness.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.event.CdcFormat;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.app.testing.DebeziumMessages;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.SinkInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/**
 * The decode and assembly steps in a real local Flink job at parallelism 2 (serializers, keying and its spread
 * over the subtasks, uids).
 */
class TransactionStreamsTest {

    @Test
    void debeziumTransactionsOfTwoPartitionsComeOutWholeAndInOrder() throws Exception {
        List<SourceRecord> records = new ArrayList<>();
        long[] offsets = new long[2];
        for (int tx = 0; tx < 20; tx++) {
            int partition = tx % 2;
            String id = (600 + tx) + ":" + (53195829 + tx);
            add(records, offsets, partition, DebeziumMessages.beginJson(id));
            add(records, offsets, partition, DebeziumMessages.dataJson("shop", "orders", "c", "null",
                    "{\"order_id\":" + tx + "}", id, 1));
            add(records, offsets, partition, DebeziumMessages.dataJson("shop", "order_items", "d",
                    "{\"order_id\":" + tx + ",\"line_no\":1}", "null", id, 2));
            add(records, offsets, partition, DebeziumMessages.endJson(id, 2,
                    Map.of("shop.orders", 1L, "shop.order_items", 1L)));
        }
        add(records, offsets, 1, DebeziumMessages.dataJson("shop", "orders", "r", "null", "{\"order_id\":99}", null));

        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        DataStream<SourceRecord> source = env.fromData(records).setParallelism(1);
        DataStream<SinkInput> rows = TransactionStreams.assemble(source, CdcFormat.DEBEZIUM,
                CdcFormat.DEBEZIUM.decoder(Map.of()), TableRouter.parse(null, "dw", UnknownTableMode.FAIL),
                AssemblerOptions.defaults());

        // the map runs forward from the assemblers (same parallelism): its subtask is the assembler's
        DataStream<Tuple2<Integer, LoadRow>> withSubtask = rows
                .map(new WithSubtaskIndex())
                .returns(Types.TUPLE(Types.INT, TypeInformation.of(LoadRow.class)));

        Map<Integer, List<LoadRow>> byPartition = new TreeMap<>();
        Map<Integer, Set<Integer>> subtasksByPartition = new TreeMap<>();
        for (Tuple2<Integer, LoadRow> out : withSubtask.executeAndCollect("assemble-test", 1_000)) {
            LoadRow row = out.f1;
            byPartition.computeIfAbsent(row.getSourcePartition(), p -> new ArrayList<>()).add(row);
            subtasksByPartition.computeIfAbsent(row.getSourcePartition(), p -> new TreeSet<>()).add(out.f0);
        }
        assertThat(subtasksByPartition).as("assembler subtask per partition: partition mod parallelism")
                .isEqualTo(Map.of(0, Set.of(0), 1, Set.of(1)));

        Map<Integer, List<LoadRow>> expected = new TreeMap<>();
        for (int tx = 0; tx < 20; tx++) {
            List<LoadRow> list = expected.computeIfAbsent(tx % 2, p -> new ArrayList<>());
            // every row carries the topic and the offset of its transaction's END (4 messages per transaction)
            long endOffset = 4L * (tx / 2) + 3;
            list.add(positioned(row("dw", "orders", "{\"order_id\":" + tx + "}", tx % 2, false), endOffset));
            list.add(positioned(row("dw", "order_items", "{\"order_id\":" + tx + ",\"line_no\":1,\"__op\":1}",
                    tx % 2, true), endOffset));
        }
        expected.get(1).add(positioned(row("dw", "orders", "{\"order_id\":99}", 1, true), 40));
        assertThat(byPartition).isEqualTo(expected);
    }

    /** Pairs each row with the index of the subtask it passed. */
    private static final class WithSubtaskIndex
            extends RichMapFunction<SinkInput, Tuple2<Integer, LoadRow>> {
        private static final long serialVersionUID = 1L;

        @Override
        public Tuple2<Integer, LoadRow> map(SinkInput row) {
            return Tuple2.of(getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), (LoadRow) row);
        }
    }

    private static LoadRow positioned(LoadRow row, long position) {
        row.setSource(DebeziumMessages.TOPIC);
        row.setSourcePosition(position);
        return row;
    }

    private static void add(List<SourceRecord> records, long[] offsets, int partition, String value) {
        records.add(new SourceRecord(DebeziumMessages.TOPIC, partition, offsets[partition]++, null, value));
    }
}
