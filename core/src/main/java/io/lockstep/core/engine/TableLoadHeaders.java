package io.lockstep.core.engine;

import io.lockstep.core.format.LoadFormat;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The stream load headers of every table of one engine, in increasing precedence: the load format's
 * ({@link LoadFormat#headers()}), the engine's defaults ({@code sink.properties.*}), then a table's own. Built and
 * checked once: every table's headers must still declare the format the bodies are framed in
 * ({@link LoadFormat#checkHeaders}). Immutable.
 */
final class TableLoadHeaders {
    private final Map<String, String> defaults;
    /** By {@code database.table}: the defaults overlaid with the table's own. */
    private final Map<String, Map<String, String>> byTable;

    /**
     * @param format   the engine's load format
     * @param defaults headers for every table, overlaid on the format's
     * @param ownByTable by {@code database.table}: headers of one table, overlaid on the defaults
     * @throws IllegalArgumentException naming the table (or the load properties of every table) whose headers do not declare
     *                                  {@code format}
     */
    TableLoadHeaders(LoadFormat format, Map<String, String> defaults, Map<String, Map<String, String>> ownByTable) {
        Map<String, String> all = new LinkedHashMap<>(format.headers());
        all.putAll(defaults);
        format.checkHeaders("the load properties of every table (sink.properties.*)", all);
        this.defaults = Map.copyOf(all);
        Map<String, Map<String, String>> tables = new HashMap<>();
        ownByTable.forEach((table, own) -> {
            Map<String, String> merged = new LinkedHashMap<>(all);
            merged.putAll(own);
            format.checkHeaders("load properties of " + table, merged);
            tables.put(table, Map.copyOf(merged));
        });
        this.byTable = Map.copyOf(tables);
    }

    /** The headers of loads into {@code database.table}; read-only. */
    Map<String, String> forTable(String database, String table) {
        return byTable.getOrDefault(database + "." + table, defaults);
    }
}
