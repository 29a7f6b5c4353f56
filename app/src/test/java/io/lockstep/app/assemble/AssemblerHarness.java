package io.lockstep.app.assemble;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import io.lockstep.app.event.SourceEvent;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;

/** A Flink operator harness around one assembler, keyed by source partition; processing time starts at 0. */
final class AssemblerHarness {

    private final KeyedOneInputStreamOperatorTestHarness<Long, SourceEvent, DefaultStarRocksRowData> harness;
    private int taken;

    AssemblerHarness(TransactionAssembler assembler) throws Exception {
        this(assembler, null, 0);
    }

    /** Restores the assembler from a checkpoint of another harness, at a processing time. */
    AssemblerHarness(TransactionAssembler assembler, OperatorSubtaskState restored, long processingTimeMs)
            throws Exception {
        harness = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(assembler),
                new SourcePartitionKey(1, 1), Types.LONG);
        harness.setProcessingTime(processingTimeMs);
        if (restored != null) {
            harness.initializeState(restored);
        }
        harness.open();
    }

    OperatorSubtaskState checkpoint(long checkpointId) throws Exception {
        return harness.snapshot(checkpointId, checkpointId);
    }

    void send(SourceEvent... events) throws Exception {
        for (SourceEvent event : events) {
            harness.processElement(event, 0L);
        }
    }

    void advanceTo(long processingTimeMs) throws Exception {
        harness.setProcessingTime(processingTimeMs);
    }

    /**
     * @return the rows emitted since the last call, without their source and source position (compared with
     *     {@link #row}; {@link #takeEmittedWithPositions} keeps them)
     */
    List<DefaultStarRocksRowData> takeEmitted() {
        return takeEmittedWithPositions().stream().map(AssemblerHarness::withoutPosition).toList();
    }

    /** @return the rows emitted since the last call, as emitted */
    List<DefaultStarRocksRowData> takeEmittedWithPositions() {
        List<DefaultStarRocksRowData> all = harness.extractOutputValues();
        List<DefaultStarRocksRowData> fresh = all.subList(taken, all.size());
        taken = all.size();
        return List.copyOf(fresh);
    }

    private static DefaultStarRocksRowData withoutPosition(DefaultStarRocksRowData emitted) {
        return row(emitted.getDatabase(), emitted.getTable(), emitted.getRow(), emitted.getSourcePartition(),
                emitted.isTransactionEnd());
    }

    int keyedStateEntries() {
        return harness.numKeyedStateEntries();
    }

    int processingTimeTimers() {
        return harness.numProcessingTimeTimers();
    }

    void close() throws Exception {
        harness.close();
    }

    /** @return the expected sink row */
    static DefaultStarRocksRowData row(String database, String table, String json, int partition, boolean end) {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, database, table, json);
        row.setSourcePartition(partition);
        row.setTransactionEnd(end);
        return row;
    }
}
