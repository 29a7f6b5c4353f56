package io.lockstep.bench;

import io.lockstep.core.progress.ProgressTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The benchmark schema and its rows: tables {@code bench.t0 .. t{n-1}}, each
 * {@code (id BIGINT, partition_no INT, txn_no BIGINT, payload VARCHAR(8192))} with a primary key on {@code id}, and
 * JSON rows padded with a payload to a target size in bytes.
 */
final class BenchTables {
    static final String DATABASE = "bench";

    private BenchTables() {
    }

    /** Table names {@code t0 .. t{count-1}}. */
    static List<String> names(int count) {
        List<String> names = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            names.add("t" + i);
        }
        return names;
    }

    /** DDL of the exactly-once multi-table mode's progress table in {@code bench} (core's own statement). */
    static String progressTableDdl() {
        return new ProgressTable(DATABASE, ProgressTable.DEFAULT_NAME).createTableSql();
    }

    /** DDL creating database {@code bench} and the named tables (PRIMARY KEY). */
    static String ddl(List<String> tables) {
        return ddl(tables, "PRIMARY KEY");
    }

    /**
     * DDL creating database {@code bench} and the named tables as {@code DUPLICATE KEY}: a store that keeps rows
     * (H2) then holds every row loaded, so row counts still compare with what the source emitted.
     */
    static String duplicateKeyDdl(List<String> tables) {
        return ddl(tables, "DUPLICATE KEY");
    }

    private static String ddl(List<String> tables, String keyType) {
        StringBuilder ddl = new StringBuilder("CREATE DATABASE " + DATABASE + ";\n");
        for (String table : tables) {
            ddl.append("CREATE TABLE ").append(DATABASE).append('.').append(table)
                    .append(" (id BIGINT NOT NULL, partition_no INT, txn_no BIGINT, payload VARCHAR(8192))")
                    .append(" ").append(keyType).append(" (id) DISTRIBUTED BY HASH(id) BUCKETS 4;\n");
        }
        return ddl.toString();
    }

    /** The payload that brings a row to about {@code rowBytes} bytes (the fixed fields take ~60). */
    static String filler(int rowBytes) {
        return "x".repeat(Math.max(1, rowBytes - 64));
    }

    /** One JSON row, UTF-8. */
    static byte[] row(long id, int partition, long txnNo, String filler) {
        return rowText(id, partition, txnNo, filler).getBytes(StandardCharsets.UTF_8);
    }

    /** One JSON row as text (what a Flink job hands the sink in {@code getRow()}). */
    static String rowText(long id, int partition, long txnNo, String filler) {
        return "{\"id\":" + id + ",\"partition_no\":" + partition + ",\"txn_no\":" + txnNo + ",\"payload\":\"" + filler
                + "\"}";
    }
}
