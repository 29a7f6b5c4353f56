package io.lockstep.app.rebuild;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.route.UnknownTableMode;
import java.util.Iterator;
import java.util.Map;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rule 6 of the cross-topic rebuild: an END that names a data collection whose topic ({@link TopicLayout#tableTopicOf},
 * Debezium's default naming) the job does not read can never be completed. With {@link UnknownTableMode#SKIP} the
 * table's count is removed from the END (one INFO line per table, once: the tables said are kept in keyed state);
 * otherwise the job stops in one line naming the table, the expected topic and the options that fix it. Task thread
 * only.
 */
final class UnreadTables {

    private static final Logger LOG = LoggerFactory.getLogger(CrossTopicRebuild.class);

    private final TopicLayout layout;
    private final UnknownTableMode mode;
    private final MapState<String, Boolean> said;

    /** @param context the rebuild's runtime context (keyed) */
    UnreadTables(RuntimeContext context, TopicLayout layout, UnknownTableMode mode) {
        this.layout = layout;
        this.mode = mode;
        said = context.getMapState(new MapStateDescriptor<>("rebuild-skipped-tables", Types.STRING, Types.BOOLEAN));
    }

    /**
     * Removes from the END the counts of tables whose topics are not read ({@code event_count} lowered to match).
     *
     * @throws TransactionRebuildException when such a table has events and the mode is not {@code SKIP}
     * @throws Exception from the state backend
     */
    void apply(SourceEvent end) throws Exception {
        Iterator<Map.Entry<String, Long>> tables = end.getTableEventCounts().entrySet().iterator();
        while (tables.hasNext()) {
            Map.Entry<String, Long> table = tables.next();
            String topic = layout.tableTopicOf(table.getKey());
            if (table.getValue() == 0 || layout.readsTableTopic(topic)) {
                continue;
            }
            if (mode != UnknownTableMode.SKIP) {
                throw new TransactionRebuildException("END of transaction '" + end.getTransactionId() + "' at "
                        + end.describePosition() + " counts " + table.getValue() + " events of table "
                        + table.getKey() + ", whose topic '" + topic + "' (Debezium's default naming) the job does not "
                        + "read: add the topic to --topic or --topic-pattern, or leave the table out with "
                        + "--unknown-table skip; topics named otherwise need the one-topic layout ("
                        + HeadWaitReport.DOCS + ")");
            }
            if (!said.contains(table.getKey())) {
                said.put(table.getKey(), Boolean.TRUE);
                // a whole table left out: said at WARN (once per table), never only at a level hidden by default
                LOG.warn("Table {}: its topic '{}' is not read, so its events are left out of every transaction "
                        + "(--unknown-table skip); said once", table.getKey(), topic);
            }
            end.setEventCount(end.getEventCount() - table.getValue());
            tables.remove();
        }
    }
}
