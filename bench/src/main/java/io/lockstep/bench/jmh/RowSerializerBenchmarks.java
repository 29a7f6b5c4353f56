package io.lockstep.bench.jmh;

import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.LoadRowSerializer;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.types.StringValue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A row's trip across a keyBy: {@link LoadRowSerializer} (the record format of every row type, the
 * connector's {@code DefaultStarRocksRowData} included) writing and reading one row (strings as UTF-8), next to
 * the same fields with Flink's {@link StringValue} strings, the format the serializer wrote before (record tag 0,
 * still read). Rows of {@code rowBytes} of ASCII JSON, as the benchmark's jobs send.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RowSerializerBenchmarks {
    @Param({"200", "2048"})
    int rowBytes;

    private final LoadRowSerializer serializer = new LoadRowSerializer();
    private final DataOutputSerializer out = new DataOutputSerializer(4096);
    private final DataInputDeserializer in = new DataInputDeserializer();
    private LoadRow row;

    @Setup
    public void setUp() {
        StringBuilder json = new StringBuilder("{\"id\":12345,\"note\":\"");
        while (json.length() < rowBytes - 2) {
            json.append((char) ('a' + json.length() % 26));
        }
        row = new LoadRow(null, "shop", "order_items", json.append("\"}").toString());
        row.setSource("shop-orders#AAAAAAAAAAAAAAAAAAAAAA");
        row.setSourcePartition(1);
        row.setSourcePosition(42);
        row.setTransactionEnd(true);
    }

    /** Serialize and deserialize with the serializer's UTF-8 strings (what a keyBy does per row). */
    @Benchmark
    public LoadRow utf8RoundTrip() throws IOException {
        out.clear();
        serializer.serialize(row, out);
        in.setBuffer(out.getSharedBuffer(), 0, out.length());
        return serializer.deserialize(in);
    }

    /** The same fields written with Flink's StringValue strings (the earlier format), read back by the serializer. */
    @Benchmark
    public LoadRow stringValueRoundTrip() throws IOException {
        out.clear();
        out.writeByte(0);
        StringValue.writeString(null, out);
        StringValue.writeString(row.getDatabase(), out);
        StringValue.writeString(row.getTable(), out);
        StringValue.writeString(row.getRow(), out);
        StringValue.writeString(row.getSource(), out);
        out.writeBoolean(row.isTransactionEnd());
        out.writeInt(row.getSourcePartition());
        out.writeLong(row.getSourcePosition());
        in.setBuffer(out.getSharedBuffer(), 0, out.length());
        return serializer.deserialize(in);
    }
}
