package io.lockstep.app.event;

import java.util.List;
import java.util.Map;

/** The supported input formats; picks the decoder (and, in {@code io.lockstep.app.assemble}, the assembler). */
public enum CdcFormat {
    /** Maxwell's daemon JSON ({@code xid}, {@code commit: true} on the last row). */
    MAXWELL,
    /** Debezium JSON with transaction metadata, BEGIN/data/END routed into one topic. */
    DEBEZIUM;

    /**
     * @param primaryKeyColumns key columns per source table {@code db.table}, used to detect key-changing
     *     updates when the messages do not name the key; may be empty
     * @return a new decoder for this format
     */
    public SourceEventDecoder decoder(Map<String, List<String>> primaryKeyColumns) {
        return this == MAXWELL ? new MaxwellDecoder(primaryKeyColumns) : new DebeziumDecoder(primaryKeyColumns);
    }
}
