package io.lockstep.app.cli;

import io.lockstep.core.server.Target;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The sink options (docs/options.md) that {@code lockstep run} sets itself, from its own flags or from how it writes
 * rows, and so refuses as {@code --sink-option}: given there, they used to win over the flags and changed what the job
 * does without a line (at-least-once under {@code --job-id}, rows routed to another database than the one whose
 * progress table was checked, non-key columns loaded as NULL through {@code sink.properties.columns}). Each refusal
 * names the flag to use instead, or why the option does not apply.
 *
 * <p>Immutable; the keys compare case-insensitively, as the sink's option keys do not, so that a differently cased key
 * is refused here rather than passed on as an unknown option.
 */
final class RunOwnedSinkOptions {
    private static final String ROWS = "lockstep run writes every column of each event as one JSON object and "
            + "frames the load itself; a load property that selects, maps, filters or reframes columns would change "
            + "or drop data without a line";
    private static final Map<String, String> OWNED = owned();

    private RunOwnedSinkOptions() {
    }

    private static Map<String, String> owned() {
        Map<String, String> owned = new LinkedHashMap<>();
        owned.put("load-url", "use --load-url");
        owned.put("fenodes", "use --load-url");
        owned.put("jdbc-url", "use --jdbc-url");
        owned.put("username", "use --user");
        owned.put("password", "use --password");
        owned.put("database-name", "use --database (each event goes to its own table there; --table-map renames)");
        owned.put("table-name", "each event goes to its own table (--table-map renames, --unknown-table decides "
                + "about tables without a target)");
        owned.put("table.identifier", "use --database; each event goes to its own table");
        owned.put("sink.semantic", "use --semantic"); // on Doris the user's choice (docs/doris.md): see check
        owned.put("sink.transaction.multi-table.job-id", "use --job-id");
        owned.put("sink.transaction.multi-table.enabled", "lockstep run loads every table of a source transaction "
                + "in one transaction on StarRocks, and per table with two-phase commit on Doris (--target)");
        owned.put("sink.version", "lockstep run chooses the sink");
        owned.put("sink.target", "use --target");
        owned.put("sink.enable-2pc", "use --semantic (on Doris the user's choice, as sink.semantic)");
        owned.put("sink.label-prefix", "use --label-prefix");
        owned.put("sink.buffer-flush.interval-ms", "use --commit-interval");
        for (String property : new String[] {"format", "strip_outer_array", "columns", "jsonpaths", "json_root",
                "where", "hidden_columns", "column_separator", "row_delimiter"}) {
            owned.put("sink.properties." + property, ROWS);
        }
        return owned;
    }

    /**
     * Checks the user's {@code --sink-option} entries.
     *
     * @param sinkOptions the entries as given
     * @param target      the job's target: on Doris {@code sink.semantic} (or {@code sink.enable-2pc}) stays the
     *                    documented way to plain stream loads (docs/doris.md), which {@code --semantic} does not
     *                    offer there
     * @throws IllegalArgumentException for the first entry whose key {@code lockstep run} sets itself, naming the key,
     *                                  the value and the flag to use instead (or why the option does not apply)
     */
    static void check(Map<String, String> sinkOptions, Target target) {
        for (Map.Entry<String, String> option : sinkOptions.entrySet()) {
            String key = option.getKey().trim().toLowerCase(Locale.ROOT);
            String reason = OWNED.get(key);
            boolean dorisSemantic = (key.equals("sink.semantic") || key.equals("sink.enable-2pc"))
                    && !target.hasMultiTableTransactions();
            if (reason != null && !dorisSemantic) {
                throw new IllegalArgumentException("--sink-option " + option.getKey() + "=" + shown(option)
                        + ": lockstep run sets this option itself; " + reason);
            }
        }
    }

    /** The value as a message may show it: never a password. */
    private static String shown(Map.Entry<String, String> option) {
        return option.getKey().trim().equalsIgnoreCase("password") ? "***" : option.getValue();
    }
}
