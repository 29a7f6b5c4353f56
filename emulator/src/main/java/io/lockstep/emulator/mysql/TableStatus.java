package io.lockstep.emulator.mysql;

import io.lockstep.emulator.catalog.ColumnSchema;
import io.lockstep.emulator.catalog.TableSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The per-table rows of {@code SHOW TABLE STATUS}, {@code SHOW [FULL] COLUMNS} and {@code DESC t ALL}, with
 * StarRocks' columns (fe-core {@code qe/ShowResultMetaFactory.java}: visitShowTableStatusStatement (18 columns,
 * Version/Rows/... BIGINT, the times DATETIME), visitShowColumnStatement (6, or 9 with FULL), visitDescTableStmt for
 * ALL on an OLAP table (8)) and the values {@code qe/ShowExecutor.java} writes: Engine {@code StarRocks}, Comment
 * {@code OLAP} for a table without a comment, SHOW COLUMNS' Key {@code YES|NO} (DESC's is {@code true|false}).
 * The emulator keeps no sizes or times: those read NULL.
 */
final class TableStatus {
    static final List<String> TITLES = List.of("Name", "Engine", "Version", "Row_format", "Rows", "Avg_row_length",
            "Data_length", "Max_data_length", "Index_length", "Data_free", "Auto_increment", "Create_time",
            "Update_time", "Check_time", "Collation", "Checksum", "Create_options", "Comment");
    static final List<String> TYPES = List.of("varchar", "varchar", "bigint(20)", "varchar", "bigint(20)",
            "bigint(20)", "bigint(20)", "bigint(20)", "bigint(20)", "bigint(20)", "bigint(20)", "datetime", "datetime",
            "datetime", "varchar", "bigint(20)", "varchar", "varchar");
    static final List<String> COLUMN_TITLES = List.of("Field", "Type", "Null", "Key", "Default", "Extra");
    static final List<String> FULL_COLUMN_TITLES = List.of("Field", "Type", "Collation", "Null", "Key", "Default",
            "Extra", "Privileges", "Comment");

    private TableStatus() {
    }

    static List<List<Object>> rows(List<TableSchema> tables, Function<TableSchema, Long> rowCount) {
        List<List<Object>> rows = new ArrayList<>();
        for (TableSchema table : tables) {
            rows.add(Arrays.asList(table.name(), "StarRocks", null, null, rowCount.apply(table), null, null, null,
                    null, null, null, null, null, null, "utf8_general_ci", null, "", "OLAP"));
        }
        return rows;
    }

    static List<List<Object>> columns(TableSchema table, boolean full) {
        List<List<Object>> rows = new ArrayList<>();
        for (ColumnSchema column : table.columns()) {
            String type = SchemaText.type(column.type());
            String nullable = column.nullable() ? "YES" : "NO";
            String key = isKey(table, column) ? "YES" : "NO";
            rows.add(full
                    ? Arrays.asList(column.name(), type, "", nullable, key, column.defaultValue(), "", "", "")
                    : Arrays.asList(column.name(), type, nullable, key, column.defaultValue(), ""));
        }
        return rows;
    }

    static List<List<Object>> describeAll(TableSchema table) {
        List<List<Object>> rows = new ArrayList<>();
        String keysType = switch (table.keysType()) {
            case PRIMARY_KEYS -> "PRIMARY_KEYS";
            case UNIQUE_KEYS -> "UNIQUE_KEYS";
            case DUPLICATE_KEYS -> "DUP_KEYS";
        };
        boolean first = true;
        for (ColumnSchema column : table.columns()) {
            rows.add(Arrays.asList(first ? table.name() : "", first ? keysType : "", column.name(),
                    SchemaText.type(column.type()), column.nullable() ? "Yes" : "No",
                    isKey(table, column) ? "true" : "false", column.defaultValue(), ""));
            first = false;
        }
        return rows;
    }

    private static boolean isKey(TableSchema table, ColumnSchema column) {
        return table.keyColumns().stream().anyMatch(k -> k.equalsIgnoreCase(column.name()));
    }
}
