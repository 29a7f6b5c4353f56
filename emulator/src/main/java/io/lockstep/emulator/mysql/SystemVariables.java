package io.lockstep.emulator.mysql;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The system variables the query port answers for {@code SELECT @@name} and {@code SHOW VARIABLES}: the ones MySQL
 * Connector/J and the MariaDB command line read at connect time, with StarRocks' defaults. Read-only: {@code SET}
 * statements are accepted and change nothing. Thread-safe (immutable).
 */
final class SystemVariables {
    private final Map<String, Object> values = new TreeMap<>();

    SystemVariables(QueryDialect dialect) {
        values.put("auto_increment_increment", 1L);
        values.put("autocommit", 1L);
        values.put("character_set_client", "utf8");
        values.put("character_set_connection", "utf8");
        values.put("character_set_database", "utf8");
        values.put("character_set_results", "utf8");
        values.put("character_set_server", "utf8");
        values.put("collation_connection", "utf8_general_ci");
        values.put("collation_database", "utf8_general_ci");
        values.put("collation_server", "utf8_general_ci");
        values.put("init_connect", "");
        values.put("interactive_timeout", 3600L);
        values.put("language", "/starrocks/share/english/");
        values.put("license", "Apache License 2.0");
        values.put("lower_case_table_names", 0L);
        values.put("max_allowed_packet", 33554432L);
        values.put("net_buffer_length", 16384L);
        values.put("net_write_timeout", 60L);
        values.put("performance_schema", 0L);
        values.put("query_cache_size", 1048576L);
        values.put("query_cache_type", "OFF");
        values.put("query_timeout", 300L);
        values.put("sql_mode", "ONLY_FULL_GROUP_BY");
        values.put("sql_select_limit", 9223372036854775807L);
        values.put("system_time_zone", "UTC");
        values.put("time_zone", "UTC");
        values.put("transaction_isolation", "REPEATABLE-READ");
        values.put("transaction_read_only", 0L);
        values.put("tx_isolation", "REPEATABLE-READ");
        values.put("tx_read_only", 0L);
        values.put("version", dialect.mysqlVersion());
        values.put("version_comment", dialect.versionComment());
        values.put("wait_timeout", 28800L);
    }

    /**
     * The value of a variable, named without {@code @@} and with an optional {@code session.} / {@code global.}.
     *
     * @throws SqlError 1193 for a variable the emulator does not know
     */
    Object get(String name) {
        String key = name.toLowerCase(Locale.ROOT);
        int dot = key.indexOf('.');
        if (dot >= 0 && (key.startsWith("session.") || key.startsWith("global.") || key.startsWith("local."))) {
            key = key.substring(dot + 1);
        }
        if (!values.containsKey(key)) {
            throw new SqlError(SqlError.UNKNOWN_SYSTEM_VARIABLE, "HY000", "Unknown system variable '" + key + "'");
        }
        return values.get(key);
    }

    /** Every variable, sorted by name. */
    Map<String, Object> all() {
        return java.util.Collections.unmodifiableMap(values);
    }
}
