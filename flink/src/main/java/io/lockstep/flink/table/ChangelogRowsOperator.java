package io.lockstep.flink.table;

import io.lockstep.flink.row.LoadRow;
import java.util.Objects;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;

/**
 * Runs {@link ChangelogRows} on the table sink's input, forward-connected to the query's last operator (same
 * parallelism, so chained to it): an UPDATE_BEFORE and the UPDATE_AFTER that the query's operator emits right after it
 * arrive here back to back and are folded into one sink row before the rows are keyed and buffered, so no flush or
 * commit can fall between them. A held UPDATE_BEFORE is released (as a delete) when the next row is not its
 * UPDATE_AFTER, on a processing-time timer registered for "now" (a timer runs between two input records, so after the
 * operator that emitted the UPDATE_BEFORE has emitted whatever follows it), before each checkpoint barrier and at the
 * end of input: no held row is ever checkpointed or left behind.
 *
 * <p>Emits {@code (primary key, sink row)}; the key is "" for a table without a primary key. Task thread only
 * (Flink's mailbox thread runs elements, timers and barriers).
 */
final class ChangelogRowsOperator extends AbstractStreamOperator<Tuple2<String, LoadRow>>
        implements OneInputStreamOperator<RowData, Tuple2<String, LoadRow>>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final ChangelogRows rows;
    /** Whether a release timer is registered and has not run yet. */
    private transient boolean releaseScheduled;
    private transient ChangelogRows.Out out;

    ChangelogRowsOperator(ChangelogRows rows) {
        this.rows = Objects.requireNonNull(rows, "rows");
    }

    @Override
    public void open() throws Exception {
        super.open();
        out = (key, row) -> output.collect(new StreamRecord<>(Tuple2.of(key, row)));
    }

    @Override
    public void processElement(StreamRecord<RowData> element) {
        rows.add(element.getValue(), out);
        if (rows.holdsUpdateBefore() && !releaseScheduled) {
            releaseScheduled = true;
            getProcessingTimeService().registerTimer(getProcessingTimeService().getCurrentProcessingTime(),
                    time -> {
                        releaseScheduled = false;
                        rows.release(out);
                    });
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        rows.release(out);
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void endInput() {
        rows.release(out);
    }

    @Override
    public void finish() throws Exception {
        rows.release(out);
        super.finish();
    }
}
