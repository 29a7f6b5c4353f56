package io.lockstep.flink.options;

import io.lockstep.core.client.AddressMap;
import io.lockstep.core.client.LoadUrls;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.server.Target;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The catalogue of sink options: every key the sink accepts, its type, default and meaning. This
 * is the single source for validation ({@link SinkOptionsValidator}), for the typed getters of
 * {@code StarRocksSinkOptions} and for {@code docs/options.md} ({@link SinkOptionsMarkdown}).
 *
 * <p>Names and defaults follow StarRocks' documents: the configuration of the multi-table transaction guide
 * (https://docs.starrocks.io/docs/loading/Flink_multi_table_transaction/) and, for options it does not define, the
 * StarRocks Flink connector's options (https://docs.starrocks.io/docs/loading/Flink-connector-starrocks/ and, in
 * StarRocks/starrocks-connector-for-apache-flink, {@code StarRocksSinkOptions.java}). Where Lockstep deviates (a range,
 * an unsupported option) the description says so.
 *
 * <p>Keys under {@link #SINK_PROPERTIES_PREFIX} are passed to the server as stream load headers
 * (the prefix removed, the rest lower-cased); three of them are also catalogue entries because the
 * sink reads them ({@link #STREAM_LOAD_TIMEOUT_SECONDS}, {@link #STREAM_LOAD_FORMAT},
 * {@link #MERGE_COMMIT_ENABLED}). Any other key is rejected (see {@link SinkOptionsValidator}).
 */
public final class SinkOptionDefinitions {

    /** Prefix of the options passed through as stream load headers. */
    public static final String SINK_PROPERTIES_PREFIX = "sink.properties.";

    /** Value of {@code database-name} / {@code table-name} that routes each row by its own target. */
    public static final String WILDCARD = "*";

    private static final long MIB = 1024L * 1024L;
    private static final long GIB = 1024L * MIB;

    public static final SinkOption<String> JDBC_URL = SinkOption.stringOption("jdbc-url")
            .description("MySQL-protocol URL of the FE, `jdbc:mysql://host:port[,host:port]`. Used only "
                    + "for optional probes (server version, table checks); an unreachable URL logs a "
                    + "warning and the job runs on (the emulator answers it on its query port).");

    public static final SinkOption<List<String>> LOAD_URL = SinkOption
            .typedOption("load-url", "String (list)", SinkOptionDefinitions::parseLoadUrls)
            .required()
            .description("HTTP addresses of the FE nodes for stream load, `host:port;host:port` "
                    + "(separator `;`, not `,`), each optionally prefixed by `http://` or `https://` "
                    + "(default `http`).");

    public static final SinkOption<String> DATABASE_NAME = SinkOption.nonBlankStringOption("database-name")
            .required()
            .description("Target database. `*` routes each row by its own `getDatabase()` "
                    + "(dynamic multi-table routing). A fixed name applies to rows that name no database; a row "
                    + "naming another database fails the job.");

    public static final SinkOption<String> TABLE_NAME = SinkOption.nonBlankStringOption("table-name")
            .required()
            .description("Target table. `*` routes each row by its own `getTable()` "
                    + "(dynamic multi-table routing). A fixed name applies to rows that name no table; a row "
                    + "naming another table fails the job.");

    public static final SinkOption<String> USERNAME = SinkOption.nonBlankStringOption("username")
            .required()
            .description("StarRocks user; needs INSERT privilege on the target tables.");

    public static final SinkOption<String> PASSWORD = SinkOption.stringOption("password")
            .defaultValue("")
            .defaultText("(empty)")
            .secret()
            .description("Password of `username`. Never logged nor shown in error messages.");

    public static final SinkOption<SinkVersion> SINK_VERSION = SinkOption
            .typedOption("sink.version", "Enum (AUTO, V1, V2)", SinkVersion::fromOptionValue)
            .defaultValue(SinkVersion.AUTO)
            .description("Sink implementation. `V2` is the transaction stream load sink and is "
                    + "required for multi-table transactions, which must set it explicitly (as the StarRocks "
                    + "documents require; `AUTO` is refused there). Otherwise `AUTO` selects `V2`. `V1` (the StarRocks "
                    + "connector's legacy sink) is not implemented by Lockstep and is rejected when "
                    + "the sink is created.");

    public static final SinkOption<SinkSemantic> SINK_SEMANTIC = SinkOption
            .typedOption("sink.semantic", "Enum (at-least-once, exactly-once)", SinkSemantic::fromOptionValue)
            .defaultValue(SinkSemantic.AT_LEAST_ONCE)
            .description("Delivery guarantee. Single-table mode: `exactly-once` uses two-phase commit with "
                    + "Flink checkpoints (one transaction per table per checkpoint, committed when the "
                    + "checkpoint completes). Multi-table mode: `exactly-once` commits each source partition's "
                    + "highest source position into a progress table in the same shared transaction as the "
                    + "data, and after a restart drops every source transaction at or below it; it needs "
                    + "`sink.transaction.multi-table.job-id`, a fixed `database-name`, and rows that carry "
                    + "`getSource()` and `getSourcePosition()`. See docs/exactly-once.md.");

    /**
     * Longest accepted label prefix; StarRocks labels are at most 128 characters
     * (docs/protocol.md#labels-and-label-state).
     */
    public static final int LABEL_PREFIX_MAX_LENGTH = LabelGenerator.MAX_PREFIX_LENGTH;

    public static final SinkOption<String> LABEL_PREFIX = SinkOption
            .patternOption("sink.label-prefix", Pattern.compile("^[-\\w]{1," + LABEL_PREFIX_MAX_LENGTH + "}$"),
                    "expected 1 to " + LABEL_PREFIX_MAX_LENGTH + " characters, only letters, digits, '_' and '-' "
                            + "(pattern ^[-\\w]*$)")
            .description("Prefix of the stream load labels this sink generates: 1 to 48 characters, "
                    + "only letters, digits, `_` and `-` (StarRocks labels match `^[-\\w]{1,128}$` and the "
                    + "sink appends its own suffix). Labels also carry the subtask index and a "
                    + "run id drawn at every start, so jobs and restarts sharing a prefix never collide.");

    public static final SinkOption<Boolean> MULTI_TABLE_ENABLED = SinkOption
            .booleanOption("sink.transaction.multi-table.enabled")
            .defaultValue(Boolean.FALSE)
            .description("Multi-table atomic transactions: all tables written in one commit cycle "
                    + "share one StarRocks transaction label and become visible together; commits "
                    + "happen only at source-transaction ends (`transactionEnd`). Requires "
                    + "`sink.version` = `V2`; `sink.semantic` selects at-least-once (default) or exactly-once "
                    + "through the progress table; cannot be combined "
                    + "with `sink.properties.enable_merge_commit` = `true`.");

    /** Longest accepted job id: it is part of the progress table's key and of derived labels. */
    public static final int JOB_ID_MAX_LENGTH = 64;

    public static final SinkOption<String> MULTI_TABLE_JOB_ID = SinkOption
            .patternOption("sink.transaction.multi-table.job-id",
                    Pattern.compile("^[-\\w]{1," + JOB_ID_MAX_LENGTH + "}$"),
                    "expected 1 to " + JOB_ID_MAX_LENGTH + " characters, only letters, digits, '_' and '-'")
            .description("Multi-table exactly-once: the name under which this job's committed source positions "
                    + "are kept in the progress table (1 to 64 characters: letters, digits, `_`, `-`). Required in "
                    + "that mode and without a default: two jobs sharing an id would drop each other's source "
                    + "transactions. Keep it across restarts, restores and rescales of the same job; a second "
                    + "job running with the same id is refused. See docs/exactly-once.md.");

    public static final SinkOption<String> MULTI_TABLE_PROGRESS_TABLE = SinkOption
            .patternOption("sink.transaction.multi-table.progress-table", Pattern.compile("^[A-Za-z_][A-Za-z0-9_]{0,63}$"),
                    "expected a table name of 1 to 64 characters: letters, digits and '_', not starting with a digit")
            .defaultValue("lockstep_progress")
            .description("Multi-table exactly-once: the progress table (PRIMARY KEY) in `database-name` that each "
                    + "shared transaction also loads, one row per (job id, source, source partition) with the "
                    + "highest committed position. It must exist before the job starts; its DDL is in "
                    + "docs/exactly-once.md and in the error shown when it is missing.");

    public static final SinkOption<Long> MULTI_TABLE_BUFFER_SIZE_BYTES = SinkOption
            .longOption("sink.transaction.multi-table.buffer-size", 1, Long.MAX_VALUE)
            .defaultValue(128 * MIB)
            .defaultText("134217728 (128 MiB)")
            .description("Multi-table mode: global buffer size in bytes over all tables. Reaching it "
                    + "triggers loads (soft limit); at twice this size the task thread blocks "
                    + "(backpressure) until loads drain.");

    public static final SinkOption<Long> BUFFER_FLUSH_INTERVAL_MS = SinkOption
            .longOption("sink.buffer-flush.interval-ms", 100, 3_600_000)
            .defaultValue(300_000L)
            .description("Commit interval in milliseconds: at-least-once modes commit the loaded "
                    + "data at this period (multi-table mode: about `interval + miniInterval` "
                    + "visibility latency). Range [100, 3600000]; the StarRocks connector's lower "
                    + "bound is 1000.");

    public static final SinkOption<Long> BUFFER_FLUSH_MAX_BYTES = SinkOption
            .longOption("sink.buffer-flush.max-bytes", 1, 10 * GIB)
            .defaultValue(90 * MIB)
            .defaultText("94371840 (90 MiB)")
            .description("Single-table modes: buffered bytes (over all tables of the subtask) that "
                    + "trigger a flush. Range [1, 10 GiB].");

    public static final SinkOption<Integer> MAX_RETRIES = SinkOption
            .intOption("sink.max-retries", 0, 1000)
            .defaultValue(3)
            .description("Retries of a failed load or transaction call that is classified as "
                    + "retryable (data errors are never retried). Range [0, 1000].");

    public static final SinkOption<Long> RETRY_INTERVAL_MS = SinkOption
            .longOption("sink.retry.interval-ms", 0, 3_600_000)
            .defaultValue(10_000L)
            .description("Upper bound in milliseconds of the backoff between two retries.");

    public static final SinkOption<Long> CONNECT_TIMEOUT_MS = SinkOption
            .longOption("sink.connect.timeout-ms", 100, 60_000)
            .defaultValue(30_000L)
            .description("Timeout in milliseconds to open an HTTP connection to a `load-url` "
                    + "address (or a redirect target). Range [100, 60000].");

    public static final SinkOption<Long> SOCKET_TIMEOUT_MS = SinkOption
            .longOption("sink.socket.timeout-ms", -1, Integer.MAX_VALUE)
            .defaultValue(60_000L)
            .description("Longest silence in milliseconds between two packets of an HTTP reply "
                    + "before the call fails on the client side; the next request then starts at the next "
                    + "`load-url` address, so a hung FE is left after one timeout. A commit whose reply is lost this "
                    + "way is settled by a label-state query. `-1` means the default (60000), `0` waits forever "
                    + "(the StarRocks connector's default is `-1` = no timeout). See docs/reliability.md for the "
                    + "detection bounds.");

    public static final SinkOption<Long> WAIT_FOR_CONTINUE_TIMEOUT_MS = SinkOption
            .longOption("sink.wait-for-continue.timeout-ms", 100, 600_000)
            .defaultValue(30_000L)
            .description("How long in milliseconds a load waits for the server's `100 Continue` or redirect "
                    + "before sending its body. A node silent for that long is taken as hung: unlike the StarRocks "
                    + "connector, Lockstep then sends it no body and tries the next `load-url` address (a FE "
                    + "redirects at once and a BE asks for the body at once). Range [100, 600000]; the connector's "
                    + "lower bound is 3000.");

    public static final SinkOption<AddressMap> BE_ADDRESS_MAP = SinkOption
            .typedOption("sink.be-address-map", "String (list)",
                    text -> AddressMap.parse(text, "sink.be-address-map"))
            .description("Addresses the FE redirects loads to (the BE addresses the cluster advertises) mapped to "
                    + "addresses the sink can reach, `advertised:port=reachable:port[,...]`, e.g. "
                    + "`172.18.0.3:8040=localhost:18040` when the cluster runs in Docker or Kubernetes. A redirect "
                    + "to an unmapped address that cannot be reached fails naming the FE that redirected and the "
                    + "advertised address.");

    public static final SinkOption<Long> RUNNING_TXN_LIMIT_WAIT_MS = SinkOption
            .longOption("sink.running-txn-limit.wait-ms", 0, 3_600_000)
            .defaultValue(120_000L)
            .description("How long, in milliseconds, a transaction begin refused by the server's running-transaction "
                    + "limit (`current running txns on db ...`, FE config `max_running_txn_num_per_db`) keeps "
                    + "retrying before the job fails. A busy server is backpressure, not an error: these retries do "
                    + "not count against `sink.max-retries`; they are reported as `retries.RUNNING_TXN_LIMIT` and "
                    + "`runningTxnLimitWaitMs`. Multi-table mode begins its shared transaction only once it has "
                    + "data to load, so an idle subtask holds no slot. Range [0, 3600000].");

    public static final SinkOption<Long> SCAN_FREQUENCY_MS = SinkOption
            .longOption("sink.scan-frequency.ms", 1, 60_000)
            .defaultValue(50L)
            .description("The sink's background (manager) thread sleeps until its next deadline (commit "
                    + "interval, idle freeze, load hold, recycling) or until signalled; this bounds, in milliseconds, "
                    + "how late a clean partition freezes under memory pressure (multi-table) and how long the "
                    + "single-table engine's manager sleeps at most.");

    public static final SinkOption<Integer> STREAM_LOAD_TIMEOUT_SECONDS = SinkOption
            .intOption(SINK_PROPERTIES_PREFIX + "timeout", 1, 259_200)
            .defaultValue(600)
            .description("Server-side transaction timeout in seconds, sent as the `timeout` header "
                    + "when a transaction begins. Must exceed the commit interval "
                    + "(`sink.buffer-flush.interval-ms`), or the server aborts transactions before "
                    + "they are committed. Multi-table mode renews its shared transaction at 80% of it.");

    public static final SinkOption<StreamLoadFormat> STREAM_LOAD_FORMAT = SinkOption
            .typedOption(SINK_PROPERTIES_PREFIX + "format", "Enum (csv, json)", StreamLoadFormat::fromHeaderValue)
            .defaultValue(StreamLoadFormat.CSV)
            .description("Format of the load bodies. With `json` each row (`getRow()`) is one JSON object, sent "
                    + "in a JSON array (`strip_outer_array: true`, and `ignore_json_size: true` on StarRocks). With "
                    + "`csv` (the default, as in the StarRocks connector) the sink writes each JSON object row as one "
                    + "CSV record: `column_separator` (default tab) and `row_delimiter` (Doris: `line_delimiter`, "
                    + "default line feed) as given, `\\N` for NULL, and a `columns` header per table naming the "
                    + "fields (a configured `columns`, else the keys of the table's first row); a table whose first "
                    + "row is not a JSON object takes CSV lines, sent as they are (as the StarRocks connector does). "
                    + "A row with other keys, a value containing the separator or delimiter, or the string `\\N` is "
                    + "refused naming table and column: see docs/sinks.md#load-formats.");

    public static final SinkOption<Boolean> MERGE_COMMIT_ENABLED = SinkOption
            .booleanOption(SINK_PROPERTIES_PREFIX + "enable_merge_commit")
            .defaultValue(Boolean.FALSE)
            .description("StarRocks merge commit. Not supported by Lockstep: `true` is rejected "
                    + "(with multi-table mode as the documents require; in single-table mode because "
                    + "the transaction stream load path ignores the header).");

    public static final SinkOption<Boolean> ABORT_LINGERING_TXN = SinkOption
            .booleanOption("sink.exactly-once.enable-abort-lingering-txn")
            .defaultValue(Boolean.TRUE)
            .description("Exactly-once: on restore, roll back the open and prepared transactions the "
                    + "restored subtasks started after the restored checkpoint (never a committed one, never "
                    + "one held in state); the state carries the label prefix and run id, so this works with "
                    + "the default prefix too. See docs/exactly-once.md.");

    public static final SinkOption<Integer> CHECK_NUM_LINGERING_TXN = SinkOption
            .intOption("sink.exactly-once.check-num-lingering-txn", -1, 1_000_000)
            .defaultValue(-1)
            .description("Exactly-once: how many labels per table after the restored checkpoint to check "
                    + "for lingering transactions. `-1` checks until the first label that is unknown to the "
                    + "server (at most 1000); `n` checks exactly `n`, stepping over unknown ones; `0` checks none.");

    public static final SinkOption<Target> SINK_TARGET = SinkOption
            .typedOption("sink.target", "Enum (starrocks, doris)", Target::fromOptionValue)
            .defaultValue(Target.STARROCKS)
            .defaultText("starrocks")
            .description("The server family. `doris` writes to Apache Doris through stream load: "
                    + "`exactly-once` uses Doris two-phase commit (each flush of a table is one pre-committed "
                    + "transaction, committed by label after the checkpoint completes), `at-least-once` uses plain "
                    + "stream loads whose labels deduplicate retries. Multi-table atomic mode is refused with "
                    + "`doris` (no multi-table transaction over HTTP); exactly-once holds per table. The options "
                    + "`fenodes`, `table.identifier` and `sink.enable-2pc` need `doris`. See docs/doris.md.");

    public static final SinkOption<String> FENODES = SinkOption.nonBlankStringOption("fenodes")
            .description("Doris connector name for `load-url` (`sink.target=doris` only): FE HTTP addresses "
                    + "`host:port,host:port`; `,` and `;` both separate. Set it or `load-url`, not both.");

    public static final SinkOption<String> TABLE_IDENTIFIER = SinkOption
            .patternOption("table.identifier", Pattern.compile("^[^.\\s]+\\.[^.\\s]+$"),
                    "expected 'database.table'")
            .description("Doris connector name for the target (`sink.target=doris` only): `database.table`, "
                    + "i.e. `database-name` and `table-name` in one (`*.*` routes by each row). Set it or those "
                    + "two, not both.");

    public static final SinkOption<Boolean> ENABLE_2PC = SinkOption.booleanOption("sink.enable-2pc")
            .description("Doris connector switch for two-phase commit (`sink.target=doris` only): `true` = "
                    + "`sink.semantic=exactly-once`, `false` = `at-least-once`. Unlike the Doris connector, "
                    + "Lockstep's default is at-least-once when neither option is set; a contradicting "
                    + "`sink.semantic` is refused.");

    public static final SinkOption<Boolean> SANITIZE_ERROR_LOG = SinkOption
            .booleanOption("sink.sanitize-error-log")
            .defaultValue(Boolean.TRUE)
            .description("Cut row values out of the server error-log excerpts that load failure messages quote "
                    + "(everything after `Row:` or `src line:` on a line), so a failure logged at WARN or ERROR "
                    + "carries the reason but no row data. The StarRocks connector's option of this name "
                    + "defaults to `false`; Lockstep defaults to `true` because rows may hold personal data.");

    /** Every catalogue entry, in documentation order. */
    public static final List<SinkOption<?>> ALL = List.of(
            JDBC_URL, LOAD_URL, DATABASE_NAME, TABLE_NAME, USERNAME, PASSWORD,
            SINK_VERSION, SINK_SEMANTIC, LABEL_PREFIX,
            MULTI_TABLE_ENABLED, MULTI_TABLE_BUFFER_SIZE_BYTES, MULTI_TABLE_JOB_ID, MULTI_TABLE_PROGRESS_TABLE,
            BUFFER_FLUSH_INTERVAL_MS, BUFFER_FLUSH_MAX_BYTES,
            MAX_RETRIES, RETRY_INTERVAL_MS, CONNECT_TIMEOUT_MS, SOCKET_TIMEOUT_MS, WAIT_FOR_CONTINUE_TIMEOUT_MS,
            RUNNING_TXN_LIMIT_WAIT_MS, BE_ADDRESS_MAP,
            SCAN_FREQUENCY_MS,
            STREAM_LOAD_TIMEOUT_SECONDS, STREAM_LOAD_FORMAT, MERGE_COMMIT_ENABLED,
            ABORT_LINGERING_TXN, CHECK_NUM_LINGERING_TXN, SANITIZE_ERROR_LOG,
            SINK_TARGET, FENODES, TABLE_IDENTIFIER, ENABLE_2PC);

    /**
     * Options of the StarRocks Flink connector that Lockstep does not implement, with the reason
     * given in the error. Listed so that a job ported from that connector gets a precise message
     * instead of "unknown option".
     */
    public static final Map<String, String> UNSUPPORTED_CONNECTOR_OPTIONS = unsupportedOptions();

    /**
     * Stream load headers the sink sets itself (lower case); {@code sink.properties.<name>} with
     * one of these names is rejected because it would break labels, routing or authentication.
     */
    public static final Set<String> RESERVED_STREAM_LOAD_HEADERS = Set.of(
            "label", "db", "table", "transaction_type", "txn_id", "authorization", "expect",
            "content-length", "transfer-encoding", "host");

    private SinkOptionDefinitions() {
    }

    /**
     * Parses {@code load-url} with the core's parser ({@link LoadUrls}, the one used by the HTTP client), so the
     * sink accepts exactly what it can connect to.
     *
     * @param text e.g. {@code fe1:8030;https://fe2:8443}
     * @return the base URLs in order, each {@code scheme://host:port}; read-only, never empty
     * @throws IllegalArgumentException naming the bad entry and the expected form
     */
    static List<String> parseLoadUrls(String text) {
        List<String> urls = new ArrayList<>();
        for (URI base : LoadUrls.parse(text, "load-url").bases()) {
            urls.add(base.toString());
        }
        return Collections.unmodifiableList(urls);
    }

    /**
     * @param key an option key; {@code sink.properties.*} keys are matched case-insensitively
     *     after the prefix
     * @return the catalogue entry, if the key has one
     */
    public static Optional<SinkOption<?>> find(String key) {
        String normalized = normalizeKey(key);
        for (SinkOption<?> option : ALL) {
            if (option.key().equals(normalized)) {
                return Optional.of(option);
            }
        }
        return Optional.empty();
    }

    /**
     * @param key an option key as given
     * @return the key with the part after {@code sink.properties.} lower-cased (header names are
     *     case-insensitive); other keys unchanged
     */
    public static String normalizeKey(String key) {
        if (key.startsWith(SINK_PROPERTIES_PREFIX)) {
            return SINK_PROPERTIES_PREFIX + key.substring(SINK_PROPERTIES_PREFIX.length()).toLowerCase(Locale.ROOT);
        }
        return key;
    }

    private static Map<String, String> unsupportedOptions() {
        Map<String, String> reasons = new LinkedHashMap<>();
        reasons.put("sink.buffer-flush.max-rows", "flushes are triggered by bytes and time only");
        reasons.put("sink.buffer-flush.enqueue-timeout-ms", "the task thread blocks on memory, not on a flush queue");
        reasons.put("sink.chunk-limit", "chunks are bounded by the buffer options");
        reasons.put("sink.io.thread-count", "each subtask loads from one background thread");
        reasons.put("sink.at-least-once.use-transaction-stream-load", "every load uses transaction stream load");
        reasons.put("sink.metric.histogram-window-size", "metrics come from the Lockstep core");
        reasons.put("sink.ignore.update-before", "DataStream rows arrive already serialized (StarRocksRowData); "
                + "the SQL sink reads it (default false: an UPDATE_BEFORE its key's UPDATE_AFTER does not follow "
                + "is loaded as a delete), see docs/sql.md");
        reasons.put("sink.use.new-sink-api", "only the SinkFunction API is implemented");
        reasons.put("sink.wrap-json-as-array", "each row is loaded as one JSON object");
        reasons.put("sink.exactly-once.enable-label-gen", "exactly-once labels are always generated by the sink");
        reasons.put("sink.parallelism", "set the parallelism on the DataStream instead");
        return Collections.unmodifiableMap(reasons);
    }
}
