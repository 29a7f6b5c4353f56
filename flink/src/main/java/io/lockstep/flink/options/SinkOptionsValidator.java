package io.lockstep.flink.options;

import static io.lockstep.flink.options.SinkOptionDefinitions.BUFFER_FLUSH_INTERVAL_MS;
import static io.lockstep.flink.options.SinkOptionDefinitions.DATABASE_NAME;
import static io.lockstep.flink.options.SinkOptionDefinitions.MERGE_COMMIT_ENABLED;
import static io.lockstep.flink.options.SinkOptionDefinitions.MULTI_TABLE_ENABLED;
import static io.lockstep.flink.options.SinkOptionDefinitions.MULTI_TABLE_JOB_ID;
import static io.lockstep.flink.options.SinkOptionDefinitions.SINK_PROPERTIES_PREFIX;
import static io.lockstep.flink.options.SinkOptionDefinitions.SINK_SEMANTIC;
import static io.lockstep.flink.options.SinkOptionDefinitions.SINK_TARGET;
import static io.lockstep.flink.options.SinkOptionDefinitions.SINK_VERSION;
import static io.lockstep.flink.options.SinkOptionDefinitions.STREAM_LOAD_FORMAT;
import static io.lockstep.flink.options.SinkOptionDefinitions.STREAM_LOAD_TIMEOUT_SECONDS;
import static io.lockstep.flink.options.SinkOptionDefinitions.TABLE_NAME;
import static io.lockstep.flink.options.SinkOptionDefinitions.WILDCARD;

import io.lockstep.core.engine.LoadMethod;
import io.lockstep.core.format.BodyCompression;
import io.lockstep.core.server.Target;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.text.similarity.LevenshteinDistance;

/**
 * Checks a sink option map against the catalogue ({@link SinkOptionDefinitions}) and the rules that
 * combine options. Every failure is an {@link InvalidSinkOptionException} naming the option, the
 * rejected value and what is expected.
 *
 * <p>Order of checks: unknown keys first (a misspelt key is the likeliest reason a required option
 * looks missing), then required options, then each value, then the stream load headers, then the
 * rules between options:
 * <ul>
 *   <li>multi-table mode requires {@code sink.version = V2}; with {@code sink.semantic = exactly-once}
 *       it needs {@code sink.transaction.multi-table.job-id} and a fixed {@code database-name}; it rejects
 *       {@code sink.properties.enable_merge_commit = true} (the limitations of https://docs.starrocks.io/docs/loading/Flink_multi_table_transaction/);</li>
 *   <li>merge commit is rejected in single-table mode too (Lockstep loads through transaction
 *       stream load, which ignores the header: docs/protocol.md#load-headers);</li>
 *   <li>in at-least-once modes {@code sink.properties.timeout} (seconds, default 600) must exceed
 *       {@code sink.buffer-flush.interval-ms}, or the server aborts a transaction before its commit
 *       (docs/architecture.md#rules-from-field-reports). Exactly-once commits at checkpoints, whose interval is
 *       only known when the sink opens: that check belongs to the sink (TransactionTimeoutCheck). Not with
 *       {@code sink.target=doris}, whose at-least-once loads commit by themselves;</li>
 *   <li>{@code sink.target=doris} refuses multi-table mode (no multi-table transaction over HTTP)
 *       and the headers {@code two_phase_commit}, {@code txn_operation}, {@code group_commit}.
 *       Doris connector option names are rewritten first ({@link DorisOptionNames}).</li>
 * </ul>
 *
 * <p>Unknown keys are rejected, not ignored: a misspelt key silently falling back to a default can
 * change the delivery guarantee (for example a typo in {@code sink.semantic}). The error suggests
 * the closest known key.
 */
public final class SinkOptionsValidator {

    private static final int MAX_SUGGESTION_DISTANCE = 3;
    /**
     * Stream load headers that declare a compressed body but that Lockstep does not send, by what to use instead:
     * StarRocks' {@code Content-Encoding} (the same as its {@code compression} header, StarRocks docs "STREAM LOAD",
     * data_desc). The implemented ones, StarRocks' {@code compression} and Doris' {@code compress_type}, are checked
     * against the target ({@code checkTarget}).
     */
    static final Map<String, String> COMPRESSION_HEADERS = Map.of(
            "content-encoding", "StarRocks' Content-Encoding header is not sent by Lockstep; set "
                    + "sink.properties.compression (gzip, bzip2, lz4_frame, zstd) instead");

    private SinkOptionsValidator() {
    }

    /**
     * Copies the options with {@code sink.properties.*} keys lower-cased after the prefix.
     *
     * @param given options as given to the builder
     * @return a sorted copy
     * @throws InvalidSinkOptionException if two keys differ only in the case of their header name
     */
    public static Map<String, String> normalize(Map<String, String> given) {
        Map<String, String> normalized = new TreeMap<>();
        for (Map.Entry<String, String> entry : given.entrySet()) {
            String key = SinkOptionDefinitions.normalizeKey(entry.getKey());
            if (normalized.containsKey(key)) {
                throw new InvalidSinkOptionException(key, "Sink option '" + key
                        + "' is set twice with different letter case; stream load header names are "
                        + "case-insensitive, keep one of them");
            }
            normalized.put(key, entry.getValue());
        }
        return normalized;
    }

    /**
     * Validates a normalized option map (see {@link #normalize}).
     *
     * @param options normalized options
     * @throws InvalidSinkOptionException on the first violation found
     */
    public static void validate(Map<String, String> options) {
        for (String key : options.keySet()) {
            checkKnown(key);
        }
        for (SinkOption<?> option : SinkOptionDefinitions.ALL) {
            if (option.isRequired() && !options.containsKey(option.key())) {
                throw new InvalidSinkOptionException(option.key(), "Missing required sink option '"
                        + option.key() + "': " + firstSentence(option.description()));
            }
        }
        for (SinkOption<?> option : SinkOptionDefinitions.ALL) {
            option.valueIn(options);
        }
        for (Map.Entry<String, String> entry : options.entrySet()) {
            if (entry.getKey().startsWith(SINK_PROPERTIES_PREFIX)) {
                checkHeader(entry.getKey(), entry.getValue());
            }
        }
        checkCombinations(options);
    }

    /**
     * Validates per-table stream load properties against the sink options they are added to.
     *
     * @param sinkOptions normalized and validated sink options
     * @param database the table properties' database
     * @param table the table properties' table
     * @param properties the table's stream load headers (lower-case names)
     * @throws InvalidSinkOptionException naming {@code sink.properties.<name>} or the database /
     *     table option the properties contradict
     */
    public static void validateTableProperties(Map<String, String> sinkOptions, String database,
            String table, Map<String, String> properties) {
        String where = " (table properties of '" + database + "." + table + "')";
        String configuredDatabase = DATABASE_NAME.valueIn(sinkOptions);
        if (!WILDCARD.equals(configuredDatabase) && !configuredDatabase.equals(database)) {
            throw new InvalidSinkOptionException(DATABASE_NAME.key(), "Table properties for '"
                    + database + "." + table + "' do not match sink option 'database-name' = '"
                    + configuredDatabase + "': expected database '" + configuredDatabase + "' or 'database-name' = '*'");
        }
        String configuredTable = TABLE_NAME.valueIn(sinkOptions);
        if (!WILDCARD.equals(configuredTable) && !configuredTable.equals(table)) {
            throw new InvalidSinkOptionException(TABLE_NAME.key(), "Table properties for '"
                    + database + "." + table + "' do not match sink option 'table-name' = '"
                    + configuredTable + "': expected table '" + configuredTable + "' or 'table-name' = '*'");
        }
        Map<String, String> merged = new TreeMap<>(sinkOptions);
        for (Map.Entry<String, String> entry : properties.entrySet()) {
            String key = SINK_PROPERTIES_PREFIX + entry.getKey();
            checkHeader(key, entry.getValue());
            merged.put(key, entry.getValue());
        }
        try {
            STREAM_LOAD_TIMEOUT_SECONDS.valueIn(merged);
            STREAM_LOAD_FORMAT.valueIn(merged);
            MERGE_COMMIT_ENABLED.valueIn(merged);
            checkCombinations(merged);
        } catch (InvalidSinkOptionException e) {
            throw new InvalidSinkOptionException(e.getOptionKey(), e.getMessage() + where);
        }
    }

    private static void checkKnown(String key) {
        if (key.startsWith(SINK_PROPERTIES_PREFIX) || SinkOptionDefinitions.find(key).isPresent()) {
            return;
        }
        String reason = SinkOptionDefinitions.UNSUPPORTED_CONNECTOR_OPTIONS.get(key);
        if (reason != null) {
            throw new InvalidSinkOptionException(key, "Sink option '" + key
                    + "' of the StarRocks connector is not supported by Lockstep (" + reason + "); remove it");
        }
        String suggestion = closestKey(key);
        throw new InvalidSinkOptionException(key, "Unknown sink option '" + key + "'"
                + (suggestion == null ? "." : "; did you mean '" + suggestion + "'?")
                + " Known options are listed in docs/options.md; stream load headers go under '"
                + SINK_PROPERTIES_PREFIX + "<header>'");
    }

    private static void checkHeader(String key, String value) {
        String header = key.substring(SINK_PROPERTIES_PREFIX.length());
        if (header.isBlank()) {
            throw new InvalidSinkOptionException(key, "Invalid sink option '" + key
                    + "': expected a stream load header name after '" + SINK_PROPERTIES_PREFIX + "'");
        }
        if (SinkOptionDefinitions.RESERVED_STREAM_LOAD_HEADERS.contains(header.toLowerCase(Locale.ROOT))) {
            throw new InvalidSinkOptionException(key, "Invalid sink option '" + key
                    + "': the stream load header '" + header + "' is set by the sink itself "
                    + "(labels, routing, authentication); remove the option");
        }
        if (value == null) {
            throw new InvalidSinkOptionException(key, "Invalid sink option '" + key
                    + "': the value is null; expected the header's value");
        }
        String compression = COMPRESSION_HEADERS.get(header.toLowerCase(Locale.ROOT));
        if (compression != null) {
            throw new InvalidSinkOptionException(key, "Invalid sink option '" + key + "' = '" + value + "': "
                    + compression);
        }
    }

    private static void checkCombinations(Map<String, String> options) {
        boolean multiTable = MULTI_TABLE_ENABLED.valueIn(options);
        SinkSemantic semantic = SINK_SEMANTIC.valueIn(options);
        boolean mergeCommit = MERGE_COMMIT_ENABLED.valueIn(options);
        Target target = SINK_TARGET.valueIn(options);
        checkTarget(options, target, multiTable);
        if (multiTable) {
            SinkVersion version = SINK_VERSION.valueIn(options);
            if (version != SinkVersion.V2) {
                throw new InvalidSinkOptionException(SINK_VERSION.key(), "Invalid sink option 'sink.version' = '"
                        + version + "': 'sink.transaction.multi-table.enabled' = 'true' requires "
                        + "'sink.version' = 'V2' (the transaction stream load sink)");
            }
            if (semantic == SinkSemantic.EXACTLY_ONCE) {
                checkMultiTableExactlyOnce(options);
            }
            if (mergeCommit) {
                throw new InvalidSinkOptionException(MERGE_COMMIT_ENABLED.key(), "Invalid sink option "
                        + "'sink.properties.enable_merge_commit' = 'true': merge commit cannot be combined "
                        + "with 'sink.transaction.multi-table.enabled' = 'true' (it bypasses the "
                        + "per-partition transaction boundaries multi-table mode commits at); expected "
                        + "'false' or no value");
            }
        }
        if (mergeCommit) {
            throw new InvalidSinkOptionException(MERGE_COMMIT_ENABLED.key(), "Invalid sink option "
                    + "'sink.properties.enable_merge_commit' = 'true': merge commit is not supported by "
                    + "Lockstep (transaction stream load ignores it); expected 'false' or no value");
        }
        // only transactions held open across a commit interval are bounded by it: Doris at-least-once commits each
        // load by itself (its timeout bounds one load, not a commit cycle); multi-table exactly-once commits on the
        // same timer as at-least-once (checkpoints only add commits)
        if ((semantic == SinkSemantic.AT_LEAST_ONCE || multiTable)
                && target.loadMethod(multiTable, semantic.deliverySemantic()) == LoadMethod.TRANSACTION) {
            int timeoutSeconds = STREAM_LOAD_TIMEOUT_SECONDS.valueIn(options);
            long intervalMs = BUFFER_FLUSH_INTERVAL_MS.valueIn(options);
            if (timeoutSeconds * 1000L <= intervalMs) {
                boolean explicit = options.containsKey(STREAM_LOAD_TIMEOUT_SECONDS.key());
                throw new InvalidSinkOptionException(STREAM_LOAD_TIMEOUT_SECONDS.key(), "Invalid sink option "
                        + "'sink.properties.timeout' = '" + timeoutSeconds + "'" + (explicit ? "" : " (default)")
                        + ": the transaction timeout (seconds) must exceed the commit interval "
                        + "'sink.buffer-flush.interval-ms' = '" + intervalMs + "' ms, or the server aborts "
                        + "transactions before they are committed; expected at least "
                        + (intervalMs / 1000 + 1) + " seconds, or a shorter interval");
            }
        }
    }

    /**
     * Multi-table exactly-once: an explicit job id (a default would let two jobs drop each other's source
     * transactions) and a fixed database (the progress table lives in the transaction's one database).
     */
    private static void checkMultiTableExactlyOnce(Map<String, String> options) {
        if (!options.containsKey(MULTI_TABLE_JOB_ID.key())) {
            throw new InvalidSinkOptionException(MULTI_TABLE_JOB_ID.key(), "Missing sink option '"
                    + MULTI_TABLE_JOB_ID.key() + "': 'sink.semantic' = 'exactly-once' with "
                    + "'sink.transaction.multi-table.enabled' = 'true' keeps committed source positions under a job "
                    + "id that has no default (two jobs on a shared default would drop each other's transactions); "
                    + "set a name that stays the same across restarts of this job, e.g. 'orders-to-shop'");
        }
        String database = DATABASE_NAME.valueIn(options);
        if (WILDCARD.equals(database)) {
            throw new InvalidSinkOptionException(DATABASE_NAME.key(), "Invalid sink option 'database-name' = '*' "
                    + "with 'sink.semantic' = 'exactly-once' and 'sink.transaction.multi-table.enabled' = 'true': "
                    + "the progress table is loaded in the same transaction as the data, and a StarRocks "
                    + "transaction covers one database; expected the fixed database name ('table-name' may stay '*')");
        }
    }

    /**
     * What the target cannot do: multi-table atomic mode without multi-table transactions (Doris has none over HTTP,
     * docs/protocol.md#starrocks-transaction-stream-load), and a stream load header the target's sink sets itself,
     * which would change what a label or a load means ({@link Target#headersSetBySink()}).
     */
    private static void checkTarget(Map<String, String> options, Target target, boolean multiTable) {
        if (multiTable && !target.hasMultiTableTransactions()) {
            throw new InvalidSinkOptionException(MULTI_TABLE_ENABLED.key(), "Invalid sink option "
                    + "'sink.transaction.multi-table.enabled' = 'true' with 'sink.target' = '" + target.optionValue()
                    + "': Apache Doris "
                    + "has no multi-table transaction over HTTP (one stream load is one table's transaction), so "
                    + "several tables cannot become visible atomically. Use single-table mode (remove the option): "
                    + "with 'sink.semantic' = 'exactly-once' every table is loaded exactly once per checkpoint "
                    + "(Doris two-phase commit), each table on its own; see docs/doris.md");
        }
        checkCompression(options, target);
        for (String header : target.headersSetBySink()) {
            String key = SINK_PROPERTIES_PREFIX + header;
            if (options.containsKey(key)) {
                throw new InvalidSinkOptionException(key, "Invalid sink option '" + key + "' with 'sink.target' = '"
                        + target.optionValue() + "': the sink sets '" + header + "' itself (two-phase commit follows "
                        + "'sink.semantic' or 'sink.enable-2pc'; group commit would drop the labels that make loads "
                        + "exactly-once or deduplicate retries); remove the option");
            }
        }
    }

    /**
     * The body compression, as the target names it: StarRocks reads {@code compression} (GZIP, BZIP2, LZ4_FRAME, ZSTD;
     * StarRocks docs "STREAM LOAD"), Doris {@code compress_type} (gz, bz2, lz4; Doris docs "Stream Load"); the other
     * target's header, or a value Lockstep does not implement, is refused naming the option and the accepted values.
     */
    private static void checkCompression(Map<String, String> options, Target target) {
        String starRocks = options.get(SINK_PROPERTIES_PREFIX + "compression");
        String doris = options.get(SINK_PROPERTIES_PREFIX + "compress_type");
        if (starRocks != null) {
            String key = SINK_PROPERTIES_PREFIX + "compression";
            if (target == Target.DORIS) {
                throw new InvalidSinkOptionException(key, "Invalid sink option '" + key + "' = '" + starRocks
                        + "' with 'sink.target' = 'doris': Doris reads the body's compression from compress_type; "
                        + "set sink.properties.compress_type (gz, bz2, lz4) instead");
            }
            try {
                BodyCompression.fromStarRocksName(starRocks);
            } catch (IllegalArgumentException e) {
                throw new InvalidSinkOptionException(key, "Invalid sink option '" + key + "' = '" + starRocks + "': "
                        + e.getMessage());
            }
        }
        if (doris != null) {
            String key = SINK_PROPERTIES_PREFIX + "compress_type";
            if (target != Target.DORIS) {
                throw new InvalidSinkOptionException(key, "Invalid sink option '" + key + "' = '" + doris + "' with "
                        + "'sink.target' = '" + target.optionValue() + "': compress_type is Doris' header; StarRocks "
                        + "reads sink.properties.compression (gzip, bzip2, lz4_frame, zstd)");
            }
            try {
                BodyCompression.fromDorisName(doris);
            } catch (IllegalArgumentException e) {
                throw new InvalidSinkOptionException(key, "Invalid sink option '" + key + "' = '" + doris + "': "
                        + e.getMessage());
            }
        }
    }

    private static String firstSentence(String description) {
        int end = description.indexOf(". ");
        return end < 0 ? description : description.substring(0, end + 1);
    }

    private static String closestKey(String key) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (SinkOption<?> option : SinkOptionDefinitions.ALL) {
            int distance = editDistance(key.toLowerCase(Locale.ROOT), option.key());
            if (distance < bestDistance) {
                bestDistance = distance;
                best = option.key();
            }
        }
        return bestDistance <= MAX_SUGGESTION_DISTANCE ? best : null;
    }

    /** Levenshtein distance (insert, delete, substitute; each costs 1), by Apache Commons Text. */
    static int editDistance(String a, String b) {
        return LevenshteinDistance.getDefaultInstance().apply(a, b);
    }
}
