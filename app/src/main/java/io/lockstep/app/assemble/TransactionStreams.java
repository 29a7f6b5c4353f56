package io.lockstep.app.assemble;

import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.CdcFormat;
import io.lockstep.app.event.DecodeFunction;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventDecoder;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.schema.ColumnReader;
import io.lockstep.flink.row.SinkInput;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Wires decode and assembly into a job (docs/architecture.md#data-flow): raw records, decoded in place (same
 * parallelism as the source, so a partition's order is kept), keyed by source partition ({@link SourcePartitionKey}:
 * the partitions spread evenly over the assembler subtasks, {@code p mod 2} at parallelism 2), assembled into
 * transactions. The result is ready for the sink's routing ({@code io.lockstep.app.job.SourcePartitionRouting}) and the
 * multi-table sink.
 *
 * <p>Operator uids are fixed ({@value #DECODE_UID}, {@value #ASSEMBLE_UID}) so the assemblers' keyed
 * state is restored from checkpoints and savepoints.
 */
public final class TransactionStreams {

    /** Uid of the decode operator. */
    public static final String DECODE_UID = "lockstep-decode";
    /** Uid of the assembler operator (holds the open transactions in keyed state). */
    public static final String ASSEMBLE_UID = "lockstep-assemble";

    private TransactionStreams() {
    }

    /**
     * @param records raw messages; each source partition's records in order
     * @param format the input format (picks the assembler)
     * @param decoder the format's decoder, e.g. {@link CdcFormat#decoder}
     * @param router maps source tables to target tables
     * @param options bounds and error handling; {@link AssemblerOptions#badInputMode()} also applies to
     *     decoding
     * @return the sink input: rows ({@code LoadRow}), each source transaction's rows contiguous per partition, the
     *     last of them with {@code transactionEnd}, and the control marks ({@link InputStop},
     *     {@code SchemaChangeBarrier}) between source transactions
     */
    public static SingleOutputStreamOperator<SinkInput> assemble(DataStream<SourceRecord> records,
            CdcFormat format, SourceEventDecoder decoder, TableRouter router, AssemblerOptions options) {
        return assemble(records, format, decoder, router, options, null);
    }

    /**
     * As {@link #assemble(DataStream, CdcFormat, SourceEventDecoder, TableRouter, AssemblerOptions)}, with the rows
     * checked against the target tables' columns ({@link TransactionAssembler#checkingColumns}) when
     * {@code columns} is given.
     *
     * @param columns reads a target table's columns, or {@code null} to load rows unchecked
     */
    public static SingleOutputStreamOperator<SinkInput> assemble(DataStream<SourceRecord> records,
            CdcFormat format, SourceEventDecoder decoder, TableRouter router, AssemblerOptions options,
            ColumnReader columns) {
        TransactionAssembler assembler = format.assembler(router, options);
        if (columns != null) {
            assembler.checkingColumns(columns);
        }
        BadInputMode badInputMode = options.badInputMode();
        DataStream<SourceEvent> events = records
                .process(new DecodeFunction(decoder, badInputMode, options.deadLetter() != null),
                        TypeInformation.of(SourceEvent.class))
                .setParallelism(records.getParallelism())
                .name("decode " + format.optionValue())
                .uid(DECODE_UID);
        SourcePartitionKey key = keyFor(events.getExecutionEnvironment());
        return events
                .keyBy(key, Types.LONG)
                .process(assembler, TypeInformation.of(SinkInput.class))
                .setParallelism(key.parallelism())
                .setMaxParallelism(key.maxParallelism())
                .name("assemble source transactions")
                .uid(ASSEMBLE_UID);
    }

    /**
     * The assemblers' keying for {@code env}: parallelism the environment's default (the parallelism the
     * assembler operator would get anyway, set on it explicitly), max parallelism the environment's if set
     * ({@code env.setMaxParallelism}, {@code pipeline.max-parallelism}), else the value Flink itself would
     * derive for that parallelism ({@link KeyGroupRangeAssignment#computeDefaultMaxParallelism}: 128 up to
     * parallelism 85). Both are set on the operator, so the key selector and the key groups Flink uses agree
     * by construction; the max parallelism equals Flink's default, so it matches what an operator without an
     * explicit one had before.
     *
     * @throws IllegalArgumentException if the environment's max parallelism is below its parallelism
     */
    static SourcePartitionKey keyFor(StreamExecutionEnvironment env) {
        int parallelism = Math.max(1, env.getParallelism());
        int maxParallelism = env.getMaxParallelism() > 0 ? env.getMaxParallelism()
                : KeyGroupRangeAssignment.computeDefaultMaxParallelism(parallelism);
        return new SourcePartitionKey(parallelism, maxParallelism);
    }
}
