package io.lockstep.app.rebuild;

import io.lockstep.app.event.SourceEvent;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * Rule 4 of the cross-topic rebuild (docs/sources.md#debeziums-default-layout-one-topic-per-table): per topic
 * partition the rebuild reads (table partitions and the transaction topic's), the covered offset = (lowest offset of
 * an event still held) - 1, or the highest offset consumed when nothing is held. A run started at covered + 1 reads
 * every event of every transaction not yet released; events read again that were released are dropped by
 * {@link ReleasedPositions}. Never decreasing.
 *
 * <p>Keyed state (the rebuild's one key; task thread only): per partition a {@link PartitionCursor}, and per held
 * event a {@link HeldLink} in a doubly linked list in offset order, so the lowest held offset is found in O(1) when
 * events are released in any order. Events of a partition arrive in offset order, so a new held event is appended at
 * the tail. Partition keys are {@code topic/partition}, the keys of {@link SourceEvent#getCoveredPositions()}.
 */
final class CoveredOffsets {

    private final MapState<String, PartitionCursor> cursors;
    private final MapState<String, HeldLink> links;

    /** @param context the rebuild's runtime context (keyed) */
    CoveredOffsets(RuntimeContext context) {
        cursors = context.getMapState(new MapStateDescriptor<>("rebuild-partitions", Types.STRING,
                TypeInformation.of(PartitionCursor.class)));
        links = context.getMapState(new MapStateDescriptor<>("rebuild-held-offsets", Types.STRING,
                TypeInformation.of(HeldLink.class)));
    }

    /** @return {@code topic/partition} of the event: a key of {@link SourceEvent#getCoveredPositions()} */
    static String partitionOf(SourceEvent event) {
        return event.getTopic() + "/" + event.getPartition();
    }

    /** @return the key of a held event: {@code topic/partition#offset} */
    static String heldKey(String partition, long offset) {
        return partition + "#" + offset;
    }

    /**
     * Records that the event was consumed and, when {@code held}, that it is held until {@link #release}d.
     *
     * @throws Exception from the state backend
     */
    void consumed(SourceEvent event, boolean held) throws Exception {
        String partition = partitionOf(event);
        long offset = event.getOffset();
        PartitionCursor cursor = cursors.get(partition);
        if (cursor == null) {
            cursor = new PartitionCursor();
        }
        cursor.setHighestConsumed(Math.max(cursor.getHighestConsumed(), offset));
        if (held && !links.contains(heldKey(partition, offset))) {
            long lower = cursor.getHighestHeld();
            // events of a partition arrive in offset order: appended at the tail, but walk back if one did not
            while (lower >= 0 && lower > offset) {
                lower = links.get(heldKey(partition, lower)).getLower();
            }
            long higher = lower >= 0 ? links.get(heldKey(partition, lower)).getHigher() : cursor.getLowestHeld();
            links.put(heldKey(partition, offset), new HeldLink(lower, higher));
            relink(partition, cursor, lower, higher, offset);
            cursor.setHeldCount(cursor.getHeldCount() + 1);
        }
        cursors.put(partition, cursor);
    }

    /**
     * The event is no longer held (released, forwarded or dropped); nothing happens if it was not held.
     *
     * @throws Exception from the state backend
     */
    void release(SourceEvent event) throws Exception {
        String partition = partitionOf(event);
        HeldLink link = links.get(heldKey(partition, event.getOffset()));
        if (link == null) {
            return;
        }
        links.remove(heldKey(partition, event.getOffset()));
        PartitionCursor cursor = cursors.get(partition);
        relink(partition, cursor, link.getLower(), link.getHigher(), -1);
        cursor.setHeldCount(cursor.getHeldCount() - 1);
        cursors.put(partition, cursor);
    }

    /** Points {@code lower} and {@code higher} at {@code middle} (-1: at each other). */
    private void relink(String partition, PartitionCursor cursor, long lower, long higher, long middle)
            throws Exception {
        if (lower >= 0) {
            HeldLink below = links.get(heldKey(partition, lower));
            below.setHigher(middle >= 0 ? middle : higher);
            links.put(heldKey(partition, lower), below);
        } else {
            cursor.setLowestHeld(middle >= 0 ? middle : higher);
        }
        if (higher >= 0) {
            HeldLink above = links.get(heldKey(partition, higher));
            above.setLower(middle >= 0 ? middle : lower);
            links.put(heldKey(partition, higher), above);
        } else {
            cursor.setHighestHeld(middle >= 0 ? middle : lower);
        }
    }

    /**
     * @param partition {@code topic/partition}
     * @return the lowest offset held in it, or -1
     * @throws Exception from the state backend
     */
    long lowestHeld(String partition) throws Exception {
        PartitionCursor cursor = cursors.get(partition);
        return cursor == null ? -1 : cursor.getLowestHeld();
    }

    /**
     * @param partition {@code topic/partition}
     * @return whether it holds an event below {@code offset}
     * @throws Exception from the state backend
     */
    boolean holdsBelow(String partition, long offset) throws Exception {
        long lowest = lowestHeld(partition);
        return lowest >= 0 && lowest < offset;
    }

    /**
     * The covered offsets that grew since the last call, now marked reported: what a released unit carries.
     *
     * @return {@code topic/partition} to covered offset; empty when none grew
     * @throws Exception from the state backend
     */
    HashMap<String, Long> takeChanged() throws Exception {
        HashMap<String, Long> changed = new HashMap<>();
        for (Map.Entry<String, PartitionCursor> entry : cursors.entries()) {
            PartitionCursor cursor = entry.getValue();
            long covered = cursor.getHeldCount() == 0 ? cursor.getHighestConsumed() : cursor.getLowestHeld() - 1;
            if (covered > cursor.getReported()) {
                changed.put(entry.getKey(), covered);
            }
        }
        for (Map.Entry<String, Long> entry : changed.entrySet()) {
            PartitionCursor cursor = cursors.get(entry.getKey());
            cursor.setReported(entry.getValue());
            cursors.put(entry.getKey(), cursor);
        }
        return changed;
    }

    /**
     * @param topic a topic
     * @return its partitions read so far with the highest offset consumed, e.g. {@code 0 up to offset 41, 1 up to
     *     offset 7}, or {@code none read yet}; for error messages
     * @throws Exception from the state backend
     */
    String describeRead(String topic) throws Exception {
        TreeMap<Integer, Long> read = new TreeMap<>();
        for (Map.Entry<String, PartitionCursor> entry : cursors.entries()) {
            String key = entry.getKey();
            int slash = key.lastIndexOf('/');
            if (key.substring(0, slash).equals(topic)) {
                read.put(Integer.parseInt(key.substring(slash + 1)), entry.getValue().getHighestConsumed());
            }
        }
        if (read.isEmpty()) {
            return "no partition read yet";
        }
        StringBuilder text = new StringBuilder("partitions read: ");
        read.forEach((p, offset) -> text.append(text.length() > 17 ? ", " : "").append(p).append(" up to offset ")
                .append(offset));
        return text.toString();
    }
}
