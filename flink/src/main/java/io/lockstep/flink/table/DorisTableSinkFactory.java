package io.lockstep.flink.table;

import io.lockstep.flink.options.SinkTarget;

/**
 * {@code CREATE TABLE t (...) WITH ('connector' = 'doris', 'fenodes' = ..., 'table.identifier' = 'db.t', ...)}: a
 * Flink SQL sink into one Apache Doris table (docs/sql.md, docs/doris.md); the Doris connector's option names are
 * accepted beside Lockstep's. Registered through {@code META-INF/services/org.apache.flink.table.factories.Factory}.
 */
public final class DorisTableSinkFactory extends LockstepTableSinkFactory {
    public DorisTableSinkFactory() {
        super(SinkTarget.DORIS);
    }
}
