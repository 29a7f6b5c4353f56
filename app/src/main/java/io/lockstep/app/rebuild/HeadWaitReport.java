package io.lockstep.app.rebuild;

import io.lockstep.app.event.SourceEvent;
import java.util.Map;
import java.util.TreeMap;

/**
 * Rule 8 of the cross-topic rebuild: the one line naming what the head transaction waits for, for the stops at the
 * byte and time bounds. Names the transaction (id, END position), per table still incomplete the events received and
 * expected, the topic they come from and how far its partitions were read; never row content.
 */
final class HeadWaitReport {

    /** Where users read about the layout and its bounds. */
    static final String DOCS = "docs/sources.md#debeziums-default-layout-one-topic-per-table";

    private HeadWaitReport() {
    }

    /**
     * @param end the head END, or {@code null} when none is queued
     * @param slots what is held of its data events, or {@code null}
     * @param layout the topic layout (table topic of each data collection)
     * @param covered how far each partition was read
     * @return e.g. {@code transaction '771:24023128' (END at topic 'pg.transaction' partition 0 offset 17) waits for
     *     2 of 5 events: table public.orders 1 of 3 (topic 'pg.public.orders', partitions read: 0 up to offset 41)}
     * @throws Exception from the state backend
     */
    static String describe(SourceEvent end, TransactionSlots slots, TopicLayout layout, CoveredOffsets covered)
            throws Exception {
        if (end == null) {
            return "no END is queued: the data events held wait for ENDs of their transactions on '"
                    + layout.transactionTopic() + "' (" + covered.describeRead(layout.transactionTopic()) + ")";
        }
        long received = slots == null ? 0 : slots.getFilled();
        StringBuilder text = new StringBuilder("transaction '").append(end.getTransactionId()).append("' (END at ")
                .append(end.describePosition()).append(") waits for ").append(Math.max(0, end.getEventCount()
                        - received)).append(" of ").append(end.getEventCount()).append(" events:");
        String separator = " ";
        for (Map.Entry<String, Long> table : new TreeMap<>(end.getTableEventCounts()).entrySet()) {
            long got = slots == null ? 0 : slots.getByTable().getOrDefault(table.getKey(), 0L);
            if (got >= table.getValue()) {
                continue;
            }
            String topic = layout.tableTopicOf(table.getKey());
            text.append(separator).append("table ").append(table.getKey()).append(' ').append(got).append(" of ")
                    .append(table.getValue()).append(" (topic '").append(topic).append("', ")
                    .append(covered.describeRead(topic)).append(')');
            separator = "; ";
        }
        return text.toString();
    }
}
