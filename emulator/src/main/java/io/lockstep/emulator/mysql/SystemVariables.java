package io.lockstep.emulator.mysql;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The system variables of one query-port session, for {@code SELECT @@name}, {@code SHOW VARIABLES} and
 * {@code SET}: the variables of StarRocks' FE {@code fe/fe-core/src/main/java/com/starrocks/qe/SessionVariable.java}
 * and {@code VariableMgr.java} that clients read or set (connection setup by MySQL Connector/J, the MariaDB and
 * MySQL command lines, Flink CDC, BI tools), with StarRocks' defaults.
 *
 * <p>A {@code SET} changes this session only and is read back by later statements; a variable StarRocks does not
 * have is refused with 1193 {@code Unknown system variable 'x'}; a read-only one ({@code version}, ...) with 1621
 * {@code Variable 'x' is a read only variable}; a value of the wrong type with 1232 {@code Incorrect argument type to
 * variable 'x'}; an invalid time zone with 1298 (error codes from StarRocks' {@code common/ErrorCode.java}).
 * {@code tx_isolation}/{@code transaction_isolation} and {@code tx_read_only}/{@code transaction_read_only} are one
 * variable each under two names. Owned by the connection's thread.
 */
final class SystemVariables {
    private static final Set<String> READ_ONLY = Set.of("version", "version_comment", "system_time_zone",
            "license", "language", "lower_case_table_names", "performance_schema", "have_query_cache");
    private static final Set<String> ISOLATION_LEVELS = Set.of("READ-UNCOMMITTED", "READ-COMMITTED",
            "REPEATABLE-READ", "SERIALIZABLE");

    private final Map<String, Object> defaults = new TreeMap<>();
    private final Map<String, Object> values = new TreeMap<>();

    SystemVariables(QueryDialect dialect) {
        longs("auto_increment_increment", 1, "autocommit", 1, "interactive_timeout", 3600,
                "lower_case_table_names", 0, "max_allowed_packet", 33554432, "net_buffer_length", 16384,
                "net_read_timeout", 60, "net_write_timeout", 60, "performance_schema", 0,
                "query_cache_size", 1048576, "query_timeout", 300, "query_delivery_timeout", 300,
                "insert_timeout", 14400, "max_execution_time", 3000000, "sql_select_limit", Long.MAX_VALUE,
                "transaction_read_only", 0, "wait_timeout", 28800, "sql_safe_updates", 0,
                "exec_mem_limit", 2147483648L, "query_mem_limit", 0, "load_mem_limit", 0, "batch_size", 4096,
                "chunk_size", 4096, "parallel_fragment_exec_instance_num", 1, "pipeline_dop", 0,
                "max_pipeline_dop", 64, "div_precision_increment", 4, "group_concat_max_len", 1024,
                "new_planner_optimize_timeout", 3000, "tx_visible_wait_timeout", 10, "sql_auto_is_null", 0,
                "cbo_max_reorder_node", 50, "runtime_filter_scan_wait_time", 20, "statistic_collect_parallel", 1,
                "foreign_key_checks", 1, "innodb_read_only", 1, "profile_timeout", 2, "pipeline_profile_level", 1,
                "parse_tokens_limit", 3500000, "max_scan_key_num", -1, "max_pushdown_conditions_per_column", -1);
        booleans("enable_profile", false, "enable_pipeline_engine", true, "enable_insert_strict", true,
                "enable_spill", false, "forward_to_leader", false, "forward_to_master", false,
                "enable_query_cache", false, "enable_materialized_view_rewrite", true, "enable_sql_digest", false,
                "enable_global_runtime_filter", true, "enable_strict_type", false, "enable_query_dump", false,
                "enable_show_all_variables", false, "enable_query_debug_trace", false, "enable_resource_group",
                true, "disable_colocate_join", false, "disable_bucket_join", false, "disable_join_reorder",
                false, "enable_predicate_reorder", false, "enable_groupby_use_output_alias", false,
                "cbo_enable_low_cardinality_optimize", true, "cbo_cte_reuse", true, "enable_async_profile", true,
                "use_page_cache", true, "enable_load_profile", false, "profiling", false);
        strings("character_set_client", "utf8", "character_set_connection", "utf8",
                "character_set_database", "utf8", "character_set_results", "utf8", "character_set_server", "utf8",
                "collation_connection", "utf8_general_ci", "collation_database", "utf8_general_ci",
                "collation_server", "utf8_general_ci", "init_connect", "", "language", "/starrocks/share/english/",
                "license", "Apache License 2.0", "query_cache_type", "OFF", "have_query_cache", "YES",
                "sql_mode", "ONLY_FULL_GROUP_BY", "system_time_zone", "UTC", "time_zone", "UTC",
                "transaction_isolation", "REPEATABLE-READ", "version", dialect.mysqlVersion(),
                "version_comment", dialect.versionComment(), "resource_group", "", "storage_engine", "olap",
                "default_storage_engine", "olap", "event_scheduler", "OFF", "sql_dialect", "StarRocks",
                "default_table_compression", "lz4_frame", "streaming_preaggregation_mode", "auto",
                "spill_mode", "auto", "transmission_compression_type", "NO_COMPRESSION",
                "load_transmission_compression_type", "NO_COMPRESSION", "partial_update_mode", "auto",
                "join_implementation_mode_v2", "auto", "tablet_internal_parallel_mode", "auto",
                "cbo_push_down_aggregate_mode", "-1", "warehouse", "default_warehouse", "catalog", "default_catalog");
        values.putAll(defaults);
    }

    private void longs(Object... pairs) {
        for (int i = 0; i < pairs.length; i += 2) {
            defaults.put((String) pairs[i], ((Number) pairs[i + 1]).longValue());
        }
    }

    private void booleans(Object... pairs) {
        for (int i = 0; i < pairs.length; i += 2) {
            defaults.put((String) pairs[i], pairs[i + 1]);
        }
    }

    private void strings(Object... pairs) {
        for (int i = 0; i < pairs.length; i += 2) {
            defaults.put((String) pairs[i], pairs[i + 1]);
        }
    }

    /**
     * The value of a variable, named without {@code @@} and with an optional {@code session.} / {@code global.}.
     *
     * @throws SqlError 1193 for a variable StarRocks does not have
     */
    Object get(String name) {
        return values.get(known(name));
    }

    /**
     * Sets a session variable; the value is a String, a Long, a BigDecimal or a Boolean as the statement wrote it,
     * or null for {@code DEFAULT}.
     *
     * @throws SqlError 1193 unknown, 1621 read-only, 1232 wrong type, 1231 wrong value, 1298 unknown time zone
     */
    void set(String name, Object value) {
        String key = known(name);
        values.put(key, check(key, value));
    }

    /**
     * Checks a {@link #set} without applying it.
     *
     * @return the value as it would be stored
     * @throws SqlError as {@link #set}
     */
    Object check(String name, Object value) {
        String key = known(name);
        if (READ_ONLY.contains(key)) {
            throw new SqlError(1621, "HY000", "Variable '" + key + "' is a read only variable");
        }
        return value == null ? defaults.get(key) : typed(key, value);
    }

    /** Back to the defaults (COM_RESET_CONNECTION). */
    void reset() {
        values.clear();
        values.putAll(defaults);
    }

    /** The session's time zone ({@code time_zone}; {@code SYSTEM} is the server's, UTC). */
    ZoneId timeZone() {
        String zone = (String) values.get("time_zone");
        return "SYSTEM".equalsIgnoreCase(zone) ? ZoneOffset.UTC : zone(zone);
    }

    /** Every variable, sorted by name. */
    Map<String, Object> all() {
        Map<String, Object> all = new TreeMap<>(values);
        all.put("tx_isolation", values.get("transaction_isolation"));
        all.put("tx_read_only", values.get("transaction_read_only"));
        return Collections.unmodifiableMap(all);
    }

    private String known(String name) {
        String key = name.toLowerCase(Locale.ROOT);
        int dot = key.indexOf('.');
        if (dot >= 0 && (key.startsWith("session.") || key.startsWith("global.") || key.startsWith("local."))) {
            key = key.substring(dot + 1);
        }
        key = switch (key) {
            case "tx_isolation" -> "transaction_isolation";
            case "tx_read_only" -> "transaction_read_only";
            default -> key;
        };
        if (!values.containsKey(key)) {
            throw SqlErrors.unknownVariable(name.toLowerCase(Locale.ROOT));
        }
        return key;
    }

    private Object typed(String key, Object value) {
        Object current = defaults.get(key);
        String text = value instanceof Boolean b ? (b ? "1" : "0") : String.valueOf(value).strip();
        if (current instanceof Long) {
            String number = switch (text.toUpperCase(Locale.ROOT)) {
                case "ON", "TRUE" -> "1";
                case "OFF", "FALSE" -> "0";
                default -> text;
            };
            try {
                return new java.math.BigDecimal(number).longValueExact();
            } catch (NumberFormatException | ArithmeticException e) {
                throw new SqlError(1232, "42000", "Incorrect argument type to variable '" + key + "'");
            }
        }
        if (current instanceof Boolean) {
            return switch (text.toUpperCase(Locale.ROOT)) {
                case "1", "ON", "TRUE" -> true;
                case "0", "OFF", "FALSE" -> false;
                default -> throw new SqlError(1231, "42000", "Variable '" + key + "' can't be set to the value of '"
                        + text + "'");
            };
        }
        if (key.equals("time_zone")) {
            if (!"SYSTEM".equalsIgnoreCase(text)) {
                zone(text);
            }
            return text;
        }
        if (key.equals("transaction_isolation")) {
            String level = text.toUpperCase(Locale.ROOT).replace(' ', '-');
            if (!ISOLATION_LEVELS.contains(level)) {
                throw new SqlError(1231, "42000", "Variable '" + key + "' can't be set to the value of '" + text
                        + "'");
            }
            return level;
        }
        return text;
    }

    private static ZoneId zone(String text) {
        try {
            if (text.matches("[+-]\\d{1,2}:\\d{2}")) {
                String[] parts = text.substring(1).split(":");
                int seconds = (Integer.parseInt(parts[0]) * 3600 + Integer.parseInt(parts[1]) * 60)
                        * (text.charAt(0) == '-' ? -1 : 1);
                return ZoneOffset.ofTotalSeconds(seconds);
            }
            return ZoneId.of(text);
        } catch (DateTimeException | NumberFormatException e) {
            throw new SqlError(1298, "HY000", "Unknown or incorrect time zone: '" + text + "'");
        }
    }
}
