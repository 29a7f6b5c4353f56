package io.lockstep.app.job;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.flink.sink.v2.LockstepSinks;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;

/**
 * How {@code lockstep run} attaches its sink on Flink 2.x: the Sink V2 sink ({@link LockstepSinks#createSink}),
 * since SinkFunction is removed in Flink 2.0. The Flink 1.20 build (../app) compiles its own copy, which attaches
 * the documented SinkFunction.
 */
final class PipelineSink {
    private PipelineSink() {
    }

    /**
     * @param rows    the routed rows (partitioned by source partition)
     * @param options the sink options
     * @return the sink, for its name and uid
     */
    static DataStreamSink<DefaultStarRocksRowData> attach(DataStream<DefaultStarRocksRowData> rows,
                                                          StarRocksSinkOptions options) {
        return rows.sinkTo(LockstepSinks.<DefaultStarRocksRowData>createSink(options));
    }
}
