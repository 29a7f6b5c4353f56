package io.lockstep.app.assemble;

import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.CdcFormat;
import io.lockstep.app.event.DecodeFunction;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventDecoder;
import io.lockstep.app.event.SourceRecord;
import io.lockstep.app.rebuild.CrossTopicRebuild;
import io.lockstep.app.rebuild.RebuildKey;
import io.lockstep.app.rebuild.TopicLayout;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.schema.ColumnReader;
import io.lockstep.flink.row.SinkInput;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
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
 * <p>Operator uids are fixed ({@value #DECODE_UID}, {@value #REBUILD_UID}, {@value #ASSEMBLE_UID}) so the keyed
 * state of the rebuild and the assemblers is restored from checkpoints and savepoints.
 */
public final class TransactionStreams {

    /** Uid of the decode operator. */
    public static final String DECODE_UID = "lockstep-decode";
    /** Uid of the cross-topic rebuild operator (Debezium's default layout only; holds the pending transactions). */
    public static final String REBUILD_UID = "lockstep-rebuild";
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
        return assemble(records, format, decoder, router, options, columns, null);
    }

    /**
     * As {@link #assemble(DataStream, CdcFormat, SourceEventDecoder, TableRouter, AssemblerOptions, ColumnReader)};
     * with a {@code layout} (Debezium's default layout, one topic per table and the transaction topic:
     * docs/sources.md#debeziums-default-layout-one-topic-per-table) the decoded events go through the cross-topic
     * rebuild ({@link CrossTopicRebuild}, uid {@value #REBUILD_UID}) first: decode, key by one constant key
     * ({@link RebuildKey}), rebuild, key by the same key, assemble. All transactions then pass one rebuild and one
     * assembler subtask, and every row carries source partition 0 (parallelism helps decoding, not loading).
     *
     * @param layout the topic layout, or {@code null} for the one-topic layout (the stream as it was)
     * @throws IllegalArgumentException when a layout is given for another format than Debezium
     */
    public static SingleOutputStreamOperator<SinkInput> assemble(DataStream<SourceRecord> records,
            CdcFormat format, SourceEventDecoder decoder, TableRouter router, AssemblerOptions options,
            ColumnReader columns, TopicLayout layout) {
        if (layout != null && format != CdcFormat.DEBEZIUM) {
            throw new IllegalArgumentException("the transaction topic layout needs --format debezium, not "
                    + format.optionValue());
        }
        TransactionAssembler assembler = format.assembler(router, options);
        if (columns != null) {
            assembler.checkingColumns(columns);
        }
        BadInputMode badInputMode = options.badInputMode();
        DataStream<SourceEvent> events = records
                .process(new DecodeFunction(decoder, badInputMode,
                        options.deadLetter() != null || options.tableCreation() != null), // the schema creates tables
                        TypeInformation.of(SourceEvent.class))
                .setParallelism(records.getParallelism())
                .name("decode " + format.optionValue())
                .uid(DECODE_UID);
        SourcePartitionKey key = keyFor(events.getExecutionEnvironment());
        KeySelector<SourceEvent, Long> keying = key;
        if (layout != null) {
            keying = new RebuildKey(key.maxParallelism());
            events = events
                    .keyBy(keying, Types.LONG)
                    .process(new CrossTopicRebuild(layout, options.maxOpenMs(), router.unknownTableMode(),
                            options.committedPositions().get(0)), TypeInformation.of(SourceEvent.class))
                    .setParallelism(key.parallelism())
                    .setMaxParallelism(key.maxParallelism())
                    .name("rebuild transactions from " + layout.transactionTopic() + " and its table topics")
                    .uid(REBUILD_UID);
        }
        return events
                .keyBy(keying, Types.LONG)
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
