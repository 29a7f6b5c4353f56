package io.lockstep.app.job;

import io.lockstep.app.assemble.InputStop;
import io.lockstep.app.create.MidStreamTableCreator;
import io.lockstep.app.create.TableCreationBarrier;
import io.lockstep.app.event.SchemaChangeException;
import io.lockstep.app.schema.SchemaApplier;
import io.lockstep.app.schema.SchemaChangeBarrier;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.LoadRowTypeInfo;
import io.lockstep.flink.row.SinkInput;
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
     * @param rows    the routed rows and control marks (partitioned by source partition)
     * @param options the sink options
     * @param schemaApplier unused: this build cannot apply schema changes (a barrier fails the job)
     * @param tableCreator unused: this build cannot create tables while the job runs (a barrier fails the job;
     *     tables are created before the start with --source-jdbc-url)
     * @return the sink, for its name and uid
     */
    static DataStreamSink<LoadRow> attach(DataStream<SinkInput> rows, SinkConfig options,
                                          SchemaApplier schemaApplier, MidStreamTableCreator tableCreator) {
        return rows.map(PipelineSink::rowOrFail, LoadRowTypeInfo.INSTANCE).name("input stop check")
                .uid("lockstep-input-stop-check")
                .sinkTo(LockstepSinks.<LoadRow>createSink(options));
    }

    /**
     * Bad input upstream arrives as an {@link InputStop} mark in order with its partition's rows; on this line the
     * job fails at the mark without first committing what the sink buffered before it (the Flink 1.20 build's
     * {@code FailFastSink} commits first). Nothing of the bad transaction is loaded either way.
     *
     * @return the input when it is a row
     * @throws RuntimeException the input's error, naming topic, partition and offset
     */
    private static LoadRow rowOrFail(SinkInput input) {
        if (input instanceof LoadRow row) {
            return row;
        }
        if (input instanceof InputStop stop) {
            throw stop.toException();
        }
        if (input instanceof SchemaChangeBarrier barrier) {
            throw new SchemaChangeException(barrier.getCause() + ": target table " + barrier.getDatabase() + "."
                    + barrier.getTable() + " needs a schema change; --schema-changes apply is available in the Flink "
                    + "1.20 build only: change the table yourself, then start again");
        }
        if (input instanceof TableCreationBarrier barrier) {
            throw new SchemaChangeException(barrier.getCause() + ": target table " + barrier.getDatabase() + "."
                    + barrier.getTable() + " does not exist; creating tables while the job runs is available in the "
                    + "Flink 1.20 build only: create it yourself, or start with --source-jdbc-url, which creates "
                    + "every included table before the start (docs/table-creation.md#tables-created-mid-stream)");
        }
        throw new IllegalStateException("unknown control mark " + input.getClass().getName() + " of source partition "
                + input.getSourcePartition() + " at the sink");
    }
}
