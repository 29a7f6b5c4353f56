package io.lockstep.app.assemble;

import io.lockstep.app.event.SourceEvent;
import org.apache.flink.api.java.functions.KeySelector;

/** Keys events by their source partition: the unit inside which the assemblers rebuild transactions. */
public final class SourcePartitionKey implements KeySelector<SourceEvent, Integer> {

    private static final long serialVersionUID = 1L;

    @Override
    public Integer getKey(SourceEvent event) {
        return event.getPartition();
    }
}
