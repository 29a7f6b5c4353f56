package io.lockstep.emulator.be;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The load headers that must be identical across the loads of one transaction (per table channel): the BE
 * plans the first load and rejects any later load whose planned request differs with INTERNAL_ERROR
 * "load request not equal last." (reference §2.3, BE-TSL {@code _exec_plan_fragment}).
 *
 * <p>{@code max_filter_ratio} and {@code exec_mem_limit} are not part of it (the plan of the first load wins),
 * nor are {@code label}, {@code timeout} or {@code table} (multi-table mode varies the table per channel).
 */
public record LoadParameters(Map<String, String> values) {

    /** Header names compared, lower case. */
    static final String[] COMPARED = {
        "format", "columns", "where", "column_separator", "row_delimiter", "partitions", "temporary_partitions",
        "negative", "strict_mode", "timezone", "load_mem_limit", "jsonpaths", "json_root", "strip_outer_array",
        "partial_update", "merge_condition", "partial_update_mode", "transmission_compression_type", "load_dop",
        "content-encoding", "compression"
    };

    /** Picks the compared headers from a request; {@code format} defaults to csv and is lower-cased. */
    public static LoadParameters of(Map<String, String> headers) {
        Map<String, String> picked = new TreeMap<>();
        for (String name : COMPARED) {
            String v = headers.get(name);
            if (v != null) {
                picked.put(name, v);
            }
        }
        String format = picked.getOrDefault("format", "csv").trim().toLowerCase(Locale.ROOT);
        picked.put("format", format.isEmpty() ? "csv" : format);
        return new LoadParameters(Map.copyOf(picked));
    }

    /** The {@code format} value, lower case. */
    public String format() {
        return values.get("format");
    }

    /** True when {@code ignore_json_size: true} is not set and the format is json (the 100 MB JSON check applies). */
    static boolean jsonSizeChecked(Map<String, String> headers) {
        String format = headers.getOrDefault("format", "csv").trim();
        String ignore = headers.getOrDefault("ignore_json_size", "false").trim();
        return format.equalsIgnoreCase("json") && !ignore.equalsIgnoreCase("true");
    }
}
