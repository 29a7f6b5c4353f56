package io.lockstep.bench.jmh;

import io.lockstep.app.event.DebeziumDecoder;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.sink.RowRouting;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Building a JSON row: a Debezium change event decoded into the row the sink loads ({@link DebeziumDecoder}, Jackson
 * parse and write), and the sink's conversion of a row's text to UTF-8 bytes ({@link RowRouting#payload}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class JsonRowBenchmarks {
    private static final String CHANGE = "{\"before\":null,\"after\":{\"order_id\":10001,\"customer_id\":4711,"
            + "\"status\":\"NEW\",\"sku\":\"SKU-1234-blue-large\",\"quantity\":3,\"price\":129.90,"
            + "\"note\":\"gift wrap requested; deliver to the side door\",\"created_at\":\"2026-11-30 12:00:00\"},"
            + "\"source\":{\"version\":\"2.7.0.Final\",\"connector\":\"mysql\",\"name\":\"shop\",\"ts_ms\":1764500000000,"
            + "\"db\":\"shop\",\"table\":\"orders\",\"file\":\"binlog.000003\",\"pos\":4711},\"op\":\"c\","
            + "\"ts_ms\":1764500000001,\"transaction\":{\"id\":\"file=binlog.000003,pos=4500\",\"total_order\":1,"
            + "\"data_collection_order\":1}}";

    private final DebeziumDecoder decoder = new DebeziumDecoder();
    private final SourceRecord record = new SourceRecord("shop", 0, 42, "{\"order_id\":10001}", CHANGE);
    private final LoadRow rowData = new LoadRow(null, "shop", "orders",
            decoder.decode(record).getRow());

    /** Debezium change event → the JSON row for StarRocks. */
    @Benchmark
    public String decodeDebeziumToRow() {
        SourceEvent event = decoder.decode(record);
        return event.getRow();
    }

    /** The sink's step from {@code getRow()} to the bytes it buffers. */
    @Benchmark
    public byte[] rowToBytes() {
        return RowRouting.payload(rowData);
    }
}
