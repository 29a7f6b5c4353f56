package io.lockstep.app.assemble;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.flink.row.LoadRow;
import java.util.List;
import java.util.Map;

/**
 * How the assembler stamps a unit (source transaction or standalone row) released by the cross-topic rebuild of
 * Debezium's one-topic-per-table layout: its closing event (END or standalone row) carries
 * {@link SourceEvent#getRebuiltSource()}, so its rows carry the rebuilt source and position instead of the event's
 * topic and offset, and its end row the event's {@link SourceEvent#getCoveredPositions()}. A unit that emits no row
 * (an empty transaction, skipped tables) but covers positions becomes one end-only row (no table, no data), so a
 * topic whose tables are all skipped still moves on (docs/exactly-once.md#progress-rows-of-the-multi-topic-layout).
 * Every other event is stamped as before: its topic and offset. Stateless.
 */
final class RebuiltUnit {

    private RebuiltUnit() {
    }

    /** @return the source the rows closed by {@code last} carry: its rebuilt source, else its topic */
    static String sourceOf(SourceEvent last) {
        return last.getRebuiltSource() != null ? last.getRebuiltSource() : last.getTopic();
    }

    /** @return the position the rows closed by {@code last} carry: its rebuilt position, else its offset */
    static long positionOf(SourceEvent last) {
        return last.getRebuiltSource() != null ? last.getRebuiltPosition() : last.getOffset();
    }

    /** @return the covered positions of a rebuilt unit's closing event, or null (none, or not rebuilt) */
    static Map<String, Long> coveredOf(SourceEvent last) {
        Map<String, Long> covered = last.getRebuiltSource() != null ? last.getCoveredPositions() : null;
        return covered == null || covered.isEmpty() ? null : covered;
    }

    /**
     * Stamps the sink rows of a standalone row event as a transaction of its own: the last ends it and carries the
     * covered positions, all carry the source and position ({@link #sourceOf}, {@link #positionOf}).
     *
     * @param rows the event's sink rows (changed in place), possibly none
     * @return the rows to emit: {@code rows}; or, when there are none, one {@link #endOnlyRow} for a rebuilt unit
     *     that covers positions, else none
     */
    static List<LoadRow> standalone(SourceEvent event, int partition, List<LoadRow> rows) {
        Map<String, Long> covered = coveredOf(event);
        if (rows.isEmpty()) {
            return covered == null ? List.of() : List.of(endOnlyRow(event, partition, null, null, covered));
        }
        LoadRow last = rows.get(rows.size() - 1);
        last.setTransactionEnd(true);
        last.setCoveredPositions(covered);
        for (LoadRow row : rows) {
            row.setSource(sourceOf(event));
            row.setSourcePosition(positionOf(event));
        }
        return rows;
    }

    /**
     * @param partition the source partition (the assembler's key)
     * @return the end row without table or data of a rebuilt unit that has no row: its source, position, commit
     *     position ({@code null}s for none) and covered positions, which the sink commits without loading anything
     */
    static LoadRow endOnlyRow(SourceEvent last, int partition, String commitSource, String commitPosition,
            Map<String, Long> covered) {
        LoadRow end = new LoadRow();
        end.setSourcePartition(partition);
        end.setSource(sourceOf(last));
        end.setSourcePosition(positionOf(last));
        end.setTransactionEnd(true);
        end.setCommitSource(commitSource);
        end.setCommitPosition(commitPosition);
        end.setCoveredPositions(covered);
        return end;
    }
}
