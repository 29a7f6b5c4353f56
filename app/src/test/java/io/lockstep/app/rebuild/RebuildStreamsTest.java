package io.lockstep.app.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.assemble.AssemblerOptions;
import io.lockstep.app.assemble.TransactionStreams;
import io.lockstep.app.event.CdcFormat;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.SinkInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/**
 * The multi-topic path of {@link TransactionStreams} in a real local Flink job at parallelism 2: decode, the
 * cross-topic rebuild, the assembler. Rows carry the rebuilt source ({@code <txTopic>+rebuilt}) and the rebuilt
 * position of their transaction, which grows by one per released transaction.
 */
class RebuildStreamsTest {

    private static final String TX = "pg.transaction";
    private static final String ORDERS = "pg.public.orders";
    private static final String ITEMS = "pg.public.items";

    @Test
    void interleavedTopicsComeOutAsWholeTransactionsInCommitOrderOnPartitionZero() throws Exception {
        List<SourceRecord> items = new ArrayList<>();
        List<SourceRecord> txTopic = new ArrayList<>();
        List<SourceRecord> orders = new ArrayList<>();
        long[] orderOffsets = new long[2];
        long previousCommit = -1;
        for (int tx = 0; tx < 6; tx++) {
            String id = (700 + tx) + ":" + (1000 * (tx + 1));
            txTopic.add(new SourceRecord(TX, 0, txTopic.size(), null, "{\"status\":\"BEGIN\",\"id\":\"" + id
                    + "\",\"ts_ms\":1,\"event_count\":null,\"data_collections\":null}"));
            txTopic.add(new SourceRecord(TX, 0, txTopic.size(), null, "{\"status\":\"END\",\"id\":\"" + id
                    + "\",\"ts_ms\":2,\"event_count\":3,\"data_collections\":[{\"data_collection\":\"public.orders\","
                    + "\"event_count\":2},{\"data_collection\":\"public.items\",\"event_count\":1}]}"));
            int p = tx % 2;
            orders.add(new SourceRecord(ORDERS, p, orderOffsets[p]++, null,
                    data("orders", "{\"order_id\":" + tx + ",\"line\":1}", id, 1, previousCommit)));
            items.add(new SourceRecord(ITEMS, 0, items.size(), null,
                    data("items", "{\"item_id\":" + tx + "}", id, 2, previousCommit)));
            orders.add(new SourceRecord(ORDERS, 1 - p, orderOffsets[1 - p]++, null,
                    data("orders", "{\"order_id\":" + tx + ",\"line\":2}", id, 3, previousCommit)));
            previousCommit = 1000L * (tx + 1);
        }
        List<SourceRecord> records = new ArrayList<>(items); // before their ENDs
        records.addAll(txTopic);
        records.addAll(orders); // after their ENDs

        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        DataStream<SourceRecord> source = env.fromData(records).setParallelism(1);
        TopicLayout layout = new TopicLayout(TX, List.of(ORDERS, ITEMS), null, TopicLayout.DEFAULT_MAX_PENDING_BYTES,
                -1);
        DataStream<SinkInput> out = TransactionStreams.assemble(source, CdcFormat.DEBEZIUM,
                CdcFormat.DEBEZIUM.decoder(Map.of()), TableRouter.parse(null, "dw", UnknownTableMode.FAIL),
                AssemblerOptions.defaults(), null, layout);

        List<String> rows = new ArrayList<>();
        for (SinkInput input : out.executeAndCollect("rebuild-test", 1_000)) {
            LoadRow row = (LoadRow) input;
            rows.add(row.getTable() + " " + row.getRow() + " p" + row.getSourcePartition() + " " + row.getSource()
                    + "@" + row.getSourcePosition() + (row.isTransactionEnd() ? " end" : ""));
        }
        List<String> expected = new ArrayList<>();
        for (int tx = 0; tx < 6; tx++) {
            // every row: source partition 0, the rebuilt source, one position per released transaction from 0
            String at = " p0 " + TX + "+rebuilt@" + tx;
            expected.add("orders {\"order_id\":" + tx + ",\"line\":1}" + at);
            expected.add("items {\"item_id\":" + tx + "}" + at);
            expected.add("orders {\"order_id\":" + tx + ",\"line\":2}" + at + " end");
        }
        assertThat(rows).containsExactlyElementsOf(expected);
    }

    /** A Debezium PostgreSQL create event of {@code public.<table>}. */
    private static String data(String table, String after, String id, long totalOrder, long previousCommit) {
        String sequence = "[" + (previousCommit < 0 ? "null" : "\\\"" + previousCommit + "\\\"") + ",\\\"1\\\"]";
        return "{\"before\":null,\"after\":" + after + ",\"source\":{\"version\":\"3.6.1.Final\",\"connector\":"
                + "\"postgresql\",\"name\":\"pg\",\"ts_ms\":1,\"snapshot\":\"false\",\"db\":\"shop\",\"sequence\":\""
                + sequence + "\",\"schema\":\"public\",\"table\":\"" + table + "\",\"txId\":700,\"lsn\":1},\"op\":\"c\","
                + "\"ts_ms\":1,\"transaction\":{\"id\":\"" + id + "\",\"total_order\":" + totalOrder
                + ",\"data_collection_order\":1}}";
    }
}
