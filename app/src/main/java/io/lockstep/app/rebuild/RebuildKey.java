package io.lockstep.app.rebuild;

import io.lockstep.app.assemble.SourcePartitionKey;
import io.lockstep.app.event.SourceEvent;
import org.apache.flink.api.java.functions.KeySelector;

/**
 * Keys every event of the cross-topic rebuild, and the assembler after it, by one constant: the
 * {@link SourcePartitionKey} key of source partition 0. Transactions of Debezium's default layout span several topics
 * and partitions, so one keyed state (one subtask) rebuilds and assembles them all, and every row they load carries
 * source partition 0. Thread-safe (immutable).
 */
public final class RebuildKey implements KeySelector<SourceEvent, Long> {

    private static final long serialVersionUID = 1L;

    private final long key;

    /** @param maxParallelism the operators' max parallelism (the key's key group depends on it) */
    public RebuildKey(int maxParallelism) {
        this.key = SourcePartitionKey.keyFor(0, maxParallelism);
    }

    /** @return the constant key */
    @Override
    public Long getKey(SourceEvent event) {
        return key;
    }
}
