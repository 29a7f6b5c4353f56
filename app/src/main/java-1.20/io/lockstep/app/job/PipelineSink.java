package io.lockstep.app.job;

import io.lockstep.app.create.MidStreamTableCreator;
import io.lockstep.app.schema.SchemaApplier;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.SinkInput;
import io.lockstep.flink.sink.LockstepSinkFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;

/**
 * How {@code lockstep run} attaches its sink on Flink 1.20: the SinkFunction sink chosen by
 * {@code LockstepSinkFunction.create} (the path the connector API's {@code SinkFunctionFactory} takes too), which carries every mode of the multi-table sink, wrapped in
 * {@link FailFastSink} (bad input upstream commits what is complete before it, then fails the job; errors that can
 * never heal end the job at once, raised so by the sink itself). The Flink 2.x
 * build (../app-flink-2.2) compiles its own copy, which attaches the Sink V2 sink instead (SinkFunction is removed
 * in Flink 2.0).
 */
final class PipelineSink {
    private PipelineSink() {
    }

    /**
     * @param rows    the routed rows and control marks (partitioned by source partition)
     * @param options the sink options
     * @param schemaApplier applies schema-change barriers ({@code --schema-changes apply}), or {@code null}
     * @param tableCreator creates the tables of table creation barriers ({@code --create-tables}), or {@code null}
     * @return the sink, for its name and uid
     */
    @SuppressWarnings("deprecation") // SinkFunction is deprecated in Flink 1.20 but is the documented API
    static DataStreamSink<SinkInput> attach(DataStream<SinkInput> rows, SinkConfig options,
                                            SchemaApplier schemaApplier, MidStreamTableCreator tableCreator) {
        return rows.addSink(new FailFastSink(LockstepSinkFunction.<LoadRow>create(options), schemaApplier,
                tableCreator));
    }
}
