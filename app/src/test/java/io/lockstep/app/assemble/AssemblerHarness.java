package io.lockstep.app.assemble;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.SinkInput;
import io.lockstep.flink.row.SinkInputSerializer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;

/** A Flink operator harness around one assembler, keyed by source partition; processing time starts at 0. */
final class AssemblerHarness {

    private final KeyedOneInputStreamOperatorTestHarness<Long, SourceEvent, SinkInput> harness;
    private int taken;
    /** Messages of the stops thrown already. */
    private final Set<String> stops = new HashSet<>();

    AssemblerHarness(TransactionAssembler assembler) throws Exception {
        this(assembler, null, 0);
    }

    /** Restores the assembler from a checkpoint of another harness, at a processing time. */
    AssemblerHarness(TransactionAssembler assembler, OperatorSubtaskState restored, long processingTimeMs)
            throws Exception {
        harness = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(assembler),
                new SourcePartitionKey(1, 1), Types.LONG);
        // the channel's serializer, as the job has it: rows and control marks alike
        harness.setup(new SinkInputSerializer());
        harness.setProcessingTime(processingTimeMs);
        if (restored != null) {
            harness.initializeState(restored);
        }
        harness.open();
    }

    OperatorSubtaskState checkpoint(long checkpointId) throws Exception {
        return harness.snapshot(checkpointId, checkpointId);
    }

    /**
     * Sends events; an {@link InputStop} the assembler emits is thrown as its error, as the job's sink does once
     * it committed what came before.
     */
    /** Sends the events of {@code transactions} in order, as one stream. */
    @SafeVarargs
    final void sendAll(java.util.List<SourceEvent>... transactions) throws Exception {
        java.util.List<SourceEvent> all = new java.util.ArrayList<>();
        for (java.util.List<SourceEvent> t : transactions) {
            all.addAll(t);
        }
        send(all.toArray(SourceEvent[]::new));
    }

    /** Takes the rows emitted since the last take and returns their text. */
    java.util.List<String> takeEmittedRowTexts() {
        return takeEmittedWithPositions().stream().map(LoadRow::getRow).toList();
    }

    void send(SourceEvent... events) throws Exception {
        for (SourceEvent event : events) {
            harness.processElement(event, 0L);
            throwInputStop();
        }
    }

    void advanceTo(long processingTimeMs) throws Exception {
        harness.setProcessingTime(processingTimeMs);
        throwInputStop();
    }

    /** Ends the input as a bounded source does: the final watermark ({@link Long#MAX_VALUE}). */
    void endInput() throws Exception {
        harness.processWatermark(Long.MAX_VALUE);
        throwInputStop();
    }

    private void throwInputStop() {
        for (SinkInput output : harness.extractOutputValues()) {
            if (output instanceof InputStop stop && stops.add(stop.getFailure())) {
                throw stop.toException();
            }
        }
    }

    /**
     * @return the rows emitted since the last call, without their source and source position (compared with
     *     {@link #row}; {@link #takeEmittedWithPositions} keeps them); an {@link InputStop} is not a row: it is
     *     thrown
     * @throws AssertionError if another control mark was emitted ({@link #takeEmittedInputs} returns those)
     */
    List<LoadRow> takeEmitted() {
        return takeEmittedWithPositions().stream().map(AssemblerHarness::withoutPosition).toList();
    }

    /**
     * @return the rows emitted since the last call, as emitted
     * @throws AssertionError if a control mark other than an {@link InputStop} was emitted
     */
    List<LoadRow> takeEmittedWithPositions() {
        List<LoadRow> rows = new ArrayList<>();
        for (SinkInput output : takeEmittedInputs()) {
            if (!(output instanceof LoadRow row)) {
                throw new AssertionError("the assembler emitted a control mark where rows were expected: " + output);
            }
            rows.add(row);
        }
        return rows;
    }

    /** @return the rows and control marks (but {@link InputStop}s) emitted since the last call, as emitted */
    List<SinkInput> takeEmittedInputs() {
        List<SinkInput> all = harness.extractOutputValues();
        List<SinkInput> fresh = all.subList(taken, all.size());
        taken = all.size();
        return fresh.stream().filter(row -> !(row instanceof InputStop)).toList();
    }

    private static LoadRow withoutPosition(LoadRow emitted) {
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
    static LoadRow row(String database, String table, String json, int partition, boolean end) {
        LoadRow row = new LoadRow(null, database, table, json);
        row.setSourcePartition(partition);
        row.setTransactionEnd(end);
        return row;
    }
}
