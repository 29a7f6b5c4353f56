package io.lockstep.flink.table;

import io.lockstep.flink.options.SinkTarget;

/**
 * {@code CREATE TABLE t (...) WITH ('connector' = 'starrocks', 'load-url' = ..., 'database-name' = ...,
 * 'table-name' = ..., ...)}: a Flink SQL sink into one StarRocks table (docs/sql.md). Registered through
 * {@code META-INF/services/org.apache.flink.table.factories.Factory}.
 */
public final class StarRocksTableSinkFactory extends LockstepTableSinkFactory {
    public StarRocksTableSinkFactory() {
        super(SinkTarget.STARROCKS);
    }
}
