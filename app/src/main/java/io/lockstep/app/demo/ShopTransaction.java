package io.lockstep.app.demo;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One generated source transaction: its changes and the Debezium messages that carry them (BEGIN, one
 * data event per change, END), all for one Kafka partition, in order.
 *
 * @param sequence 1-based number of the transaction in the workload (commit order)
 * @param id Debezium transaction id (a MySQL GTID {@code server_uuid:sequence})
 * @param kind what the transaction does
 * @param customerId the customer whose rows it touches (all its rows belong to this customer)
 * @param partition the Kafka partition all its messages go to
 * @param commitTimeMs source commit time in ms since the epoch (the {@code ts_ms} of its messages), from
 *     the generator's clock; for freshness measurements
 * @param changes row changes in statement order
 * @param messages BEGIN, the data events (in {@code changes} order, each delete followed by its
 *     tombstone) and END
 */
public record ShopTransaction(long sequence, String id, ShopTransactionKind kind, long customerId, int partition,
        long commitTimeMs, List<ShopChange> changes, List<CdcMessage> messages) {

    /**
     * One Kafka message (Debezium JSON, {@code schemas.enable=false}).
     *
     * @param key the record key: the row's primary key, or {@code {"id": ...}} for BEGIN/END
     * @param value the record value, or {@code null} for a tombstone
     */
    public record CdcMessage(String key, String value) {
    }

    /** @return the tables the transaction changes, in first-change order */
    public Set<String> tablesTouched() {
        Set<String> tables = new LinkedHashSet<>();
        for (ShopChange change : changes) {
            tables.add(change.table().name());
        }
        return tables;
    }
}
