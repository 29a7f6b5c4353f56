/**
 * Flink type information and serializer of the StarRocks facade row
 * {@code com.starrocks.connector.flink.table.data.DefaultStarRocksRowData}. Part of the facade, not of the row
 * model ({@code io.lockstep.flink.row}); the classes keep this package and their names because checkpoints and
 * savepoints name {@code DefaultStarRocksRowDataSerializer$Snapshot} (see docs/architecture.md, "Rows and control
 * marks").
 */
package io.lockstep.flink.types;
