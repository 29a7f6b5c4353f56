package io.lockstep.flink.sink;

import io.lockstep.core.client.AddressMap;
import io.lockstep.core.client.LoadUrls;
import io.lockstep.core.client.StreamLoader;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.engine.LoadEngineConfig;
import io.lockstep.core.engine.LoadMethod;
import io.lockstep.core.format.LoadFormat;
import io.lockstep.core.format.LoadFormats;
import io.lockstep.core.format.UnsupportedLoadFormatException;
import io.lockstep.core.label.ExactlyOnceLabelScheme;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.core.progress.ProgressSettings;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.core.server.Target;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.config.SinkConfigSource;
import io.lockstep.flink.config.TableLoadProperties;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkOptionDefinitions;
import io.lockstep.flink.options.SinkSemantic;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.annotation.Nullable;

/**
 * The one mapping from {@link SinkConfig} to the core's settings: the HTTP client's
 * {@link TransactionClientConfig}, the engine's {@link LoadEngineConfig} and the stream load headers per table.
 * Every sink (multi-table, at-least-once single-table, exactly-once) builds its core objects through this class,
 * so an option means the same thing in every mode.
 *
 * <p>Mapping (option → core setting):
 * <ul>
 *   <li>{@code load-url} → {@link TransactionClientConfig#loadUrls()}, parsed by the core's {@link LoadUrls};
 *       {@code username}, {@code password} → the client's credentials;</li>
 *   <li>{@code sink.connect.timeout-ms} → {@code connectTimeoutMs}; {@code sink.socket.timeout-ms} →
 *       {@code socketTimeoutMs} ({@code -1} keeps the client default of 60000 ms, {@code 0} means no limit,
 *       i.e. {@link Integer#MAX_VALUE} ms); {@code sink.wait-for-continue.timeout-ms} →
 *       {@code waitForContinueTimeoutMs};</li>
 *   <li>{@code sink.max-retries} → {@code maxRetries}; {@code sink.retry.interval-ms} → the backoff cap
 *       (the first backoff is {@code min(500, interval)} ms, doubling up to the cap; {@code 0} → 1 ms);</li>
 *   <li>{@code sink.running-txn-limit.wait-ms} → {@code runningTxnLimitWaitMs}; {@code sink.be-address-map} →
 *       {@code redirectAddressMap};</li>
 *   <li>{@code sink.sanitize-error-log} → {@code sanitizeErrorLog} (row values cut out of error-log excerpts);</li>
 *   <li>{@code sink.label-prefix} → {@link LoadEngineConfig#labelPrefix()} (default {@code lockstep});</li>
 *   <li>{@code sink.buffer-flush.interval-ms} → {@code commitIntervalMs}; {@code sink.scan-frequency.ms} →
 *       {@code scanningFrequencyMs}; {@code sink.properties.timeout} → {@code serverTimeoutSeconds} (sent on
 *       begin, so it is not repeated on loads);</li>
 *   <li>multi-table mode: {@code sink.transaction.multi-table.buffer-size} → {@code bufferSizeBytes}, and a fixed
 *       {@code database-name} → {@link LoadEngineConfig#database()}; single-table modes:
 *       {@code sink.buffer-flush.max-bytes} → {@code bufferSizeBytes};</li>
 *   <li>{@link SinkConfig#streamLoadHeadersFor} → the engine's default and per-table load headers;</li>
 *   <li>{@code sink.target} → the client dialect ({@link #newTransactionClient}, {@link #newStreamLoader}), the
 *       engine's {@link #loadMethod()} and the exactly-once {@link #labelScheme()} (docs/doris.md).</li>
 * </ul>
 *
 * <p>Checks beyond the option validator, each an {@link InvalidSinkOptionException} naming the option: the row format
 * ({@code sink.properties.format}, and a table's own {@code format}) must be one {@link LoadFormats#forName} accepts,
 * JSON today, with {@code strip_outer_array=true} (the engine sends each load as a JSON array of rows); at-least-once
 * commit intervals must stay below 80% of {@code sink.properties.timeout} (the engine renews its transactions there,
 * docs/architecture.md#rules-from-field-reports); any other value the core refuses.
 *
 * <p>Immutable after {@link #from}; cheap to build, so each subtask builds its own in {@code open()}.
 */
public final class SinkSettings {

    /** A CSV format's refusal of one of its headers, e.g. {@code Invalid column_separator = '\t': ...}. */
    private static final Pattern FORMAT_HEADER_REFUSAL =
            Pattern.compile("(?s)Invalid (column_separator|row_delimiter|line_delimiter)( = .*)");
    /** The label prefix used when {@code sink.label-prefix} is not set. */
    public static final String DEFAULT_LABEL_PREFIX = "lockstep";

    private final SinkConfig options;
    private final TransactionClientConfig clientConfig;

    private SinkSettings(SinkConfig options, TransactionClientConfig clientConfig) {
        this.options = options;
        this.clientConfig = clientConfig;
    }

    /**
     * Maps and checks the options; call it where the sink is created, so a misconfiguration fails the job
     * submission rather than every subtask.
     *
     * @throws InvalidSinkOptionException naming the option the core cannot run with
     * @param source the configuration, or the facade that translates into one
     * @throws NullPointerException       if {@code source} is null
     */
    public static SinkSettings from(SinkConfigSource source) {
        SinkConfig options = Objects.requireNonNull(source, "options").sinkConfig();
        loadFormat(options);
        if ((options.getSemantic() == SinkSemantic.AT_LEAST_ONCE || options.isMultiTableTransactionEnabled())
                && loadMethod(options) == LoadMethod.TRANSACTION) {
            long intervalMs = options.getBufferFlushIntervalMs();
            int timeoutSeconds = options.getStreamLoadTimeoutSeconds();
            if (intervalMs >= timeoutSeconds * 800L) {
                throw new InvalidSinkOptionException(SinkOptionDefinitions.STREAM_LOAD_TIMEOUT_SECONDS.key(),
                        "Invalid sink option 'sink.properties.timeout' = '" + timeoutSeconds + "': the sink renews "
                                + "its transactions at 80% of the transaction timeout, which must therefore exceed "
                                + "the commit interval 'sink.buffer-flush.interval-ms' = '" + intervalMs
                                + "' ms; expected at least " + (intervalMs / 800 + 1) + " seconds");
            }
        }
        SinkSettings settings = new SinkSettings(options, buildClientConfig(options));
        // Build one engine config now, so anything the core refuses is reported at job submission.
        settings.engineConfigBuilder(0, null).build();
        return settings;
    }

    /** The configuration these settings were made from. */
    public SinkConfig options() {
        return options;
    }

    /** Settings of the HTTP client ({@code StarRocksTransactionClient}); the same for every subtask. */
    public TransactionClientConfig clientConfig() {
        return clientConfig;
    }

    /** {@code sink.target}: the server family. */
    public Target target() {
        return options.getTarget();
    }

    /**
     * A new transaction client of the target's dialect ({@link Target#newTransactionClient}). The caller closes it.
     */
    public TransactionClient newTransactionClient(LoadMetrics metrics) {
        return target().newTransactionClient(clientConfig, metrics);
    }

    /**
     * A new classic stream loader of the target's dialect ({@link Target#newStreamLoader}), for
     * {@link LoadMethod#CLASSIC}. The caller closes it.
     */
    public StreamLoader newStreamLoader(LoadMetrics metrics) {
        return target().newStreamLoader(clientConfig, metrics);
    }

    /**
     * How the single-table engine loads: StarRocks always by transaction stream load; Doris exactly-once by
     * two-phase stream load (one pre-committed transaction per table and flush), Doris at-least-once by plain stream
     * load (one committing load per table and flush, label dedup on retries). Multi-table mode: TRANSACTION.
     */
    public LoadMethod loadMethod() {
        return loadMethod(options);
    }

    private static LoadMethod loadMethod(SinkConfig options) {
        return options.getTarget().loadMethod(options.isMultiTableTransactionEnabled(),
                options.getSemantic().deliverySemantic());
    }

    /** How exactly-once labels are shaped: one per flush on Doris (one load per transaction), else per checkpoint. */
    public ExactlyOnceLabelScheme labelScheme() {
        return target().labelScheme();
    }

    /**
     * The engine settings of one subtask.
     *
     * @param subtaskIndex this subtask's index, part of every label
     * @param runId        the run identity for labels ({@code RunId.random()} for a fresh run, the
     *                     restored one for exactly-once); null = a fresh one
     * @throws InvalidSinkOptionException if the core refuses a value (already checked by {@link #from})
     */
    public LoadEngineConfig engineConfig(int subtaskIndex, @Nullable String runId) {
        return build(engineConfigBuilder(subtaskIndex, runId));
    }

    /**
     * The engine settings of one subtask as a builder, for a sink that must adjust one (e.g. timeouts); build it
     * with {@link LoadEngineConfig.Builder#build()}.
     *
     * @param runId null = a fresh run identity
     */
    public LoadEngineConfig.Builder engineConfigBuilder(int subtaskIndex, @Nullable String runId) {
        LoadEngineConfig.Builder b = LoadEngineConfig.builder()
                .labelPrefix(labelPrefix())
                .subtaskIndex(subtaskIndex)
                .runId(runId)
                .commitIntervalMs(commitIntervalMs())
                .scanningFrequencyMs(options.getScanFrequencyMs())
                .serverTimeoutSeconds(options.getStreamLoadTimeoutSeconds())
                .loadMethod(loadMethod())
                .loadFormat(loadFormat(options));
        if (options.isMultiTableTransactionEnabled()) {
            b.bufferSizeBytes(options.getMultiTableBufferSizeBytes());
            String database = options.getDatabaseName();
            if (!SinkOptionDefinitions.WILDCARD.equals(database)) {
                b.database(database);
            }
            if (isMultiTableExactlyOnce()) {
                b.progress(new ProgressSettings(options.getMultiTableJobId(),
                        new ProgressTable(database, options.getMultiTableProgressTable())));
            }
        } else {
            b.bufferSizeBytes(options.getBufferFlushMaxBytes());
        }
        // The table is not known for "*" routing: the defaults are the headers of a table without own properties.
        loadHeadersFor("", "").forEach(b::loadProperty);
        for (TableLoadProperties table : options.getTableProperties()) {
            b.tableLoadProperties(table.database(), table.table(), loadHeadersFor(table.database(), table.table()));
        }
        return b;
    }

    /**
     * The engine's commit interval, ms: {@code sink.buffer-flush.interval-ms}. Exactly-once commits at checkpoints
     * and the engine runs no commit timer, so there the interval is capped below 80% of the transaction timeout,
     * which the engine requires, instead of refusing an option that does not apply (the exactly-once sink checks
     * the timeout against the checkpoint interval instead).
     */
    private long commitIntervalMs() {
        long intervalMs = options.getBufferFlushIntervalMs();
        if (options.getSemantic() == SinkSemantic.EXACTLY_ONCE && !options.isMultiTableTransactionEnabled()) {
            return Math.min(intervalMs, options.getStreamLoadTimeoutSeconds() * 800L - 1);
        }
        return intervalMs;
    }

    /** Multi-table mode with {@code sink.semantic=exactly-once}: source positions committed with the data. */
    public boolean isMultiTableExactlyOnce() {
        return options.isMultiTableTransactionEnabled() && options.getSemantic() == SinkSemantic.EXACTLY_ONCE;
    }

    /** {@code sink.label-prefix}, or {@value #DEFAULT_LABEL_PREFIX} when unset. */
    public String labelPrefix() {
        String prefix = options.getLabelPrefix();
        return prefix == null || prefix.isEmpty() ? DEFAULT_LABEL_PREFIX : prefix;
    }

    /**
     * The stream load headers of loads into one table ({@link SinkConfig#streamLoadHeadersFor}); for
     * StarRocks without {@code timeout}, which goes with the begin; Doris has no begin, so its loads carry it.
     */
    public Map<String, String> loadHeadersFor(String database, String table) {
        return target().loadHeaders(options.streamLoadHeadersFor(database, table));
    }

    private static LoadEngineConfig build(LoadEngineConfig.Builder b) {
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new InvalidSinkOptionException("sink", "The sink options cannot run on the load engine: "
                    + e.getMessage());
        }
    }

    /**
     * The load format of every table: {@code sink.properties.format} through {@link LoadFormats#forName}; a table's
     * own {@code format} must name the same one, and the format's other headers ({@link LoadFormat#headers()}: for
     * JSON {@code strip_outer_array}) must be unset or its value, here and in every table's own headers.
     *
     * @throws InvalidSinkOptionException naming the option (or the table) whose format the sinks cannot load
     */
    private static LoadFormat loadFormat(SinkConfig options) {
        String name = options.getStreamLoadFormat().headerValue();
        LoadFormat format;
        try {
            format = LoadFormats.forName(name, "sink option 'sink.properties.format'",
                    options.getStreamLoadProperties());
        } catch (UnsupportedLoadFormatException e) {
            Matcher header = FORMAT_HEADER_REFUSAL.matcher(e.reason());
            if (header.matches()) { // a header of the format (column_separator, row_delimiter) is what is wrong
                throw new InvalidSinkOptionException("sink.properties." + header.group(1),
                        "Invalid sink option 'sink.properties." + header.group(1) + "'" + header.group(2));
            }
            throw new InvalidSinkOptionException(SinkOptionDefinitions.STREAM_LOAD_FORMAT.key(),
                    "Invalid sink option 'sink.properties.format' = '" + name + "'"
                            + (options.getStreamLoadProperties().containsKey("format") ? "" : " (default)") + ": "
                            + e.reason());
        }
        checkFormatHeaders(format, options.getStreamLoadProperties(), header -> "sink.properties." + header);
        for (TableLoadProperties table : options.getTableProperties()) {
            Map<String, String> props = table.headers();
            String own = props.get("format");
            if (own != null) {
                String refusal = "Invalid stream load property 'format' = '" + own + "' for table '"
                        + table.uniqueKey() + "': ";
                LoadFormat tableFormat;
                try {
                    tableFormat = LoadFormats.forName(own, "format of table '" + table.uniqueKey() + "'", props);
                } catch (UnsupportedLoadFormatException e) {
                    throw new InvalidSinkOptionException(SinkOptionDefinitions.STREAM_LOAD_FORMAT.key(),
                            refusal + e.reason());
                }
                if (!tableFormat.name().equals(format.name())
                        || !compressionOf(tableFormat).equals(compressionOf(format))) {
                    throw new InvalidSinkOptionException(SinkOptionDefinitions.STREAM_LOAD_FORMAT.key(),
                            refusal + "the sink loads every table as '" + format.name() + "'"
                                    + compressionOf(format).map(c -> " compressed with " + c).orElse(""));
                }
            }
            checkFormatHeaders(format, props, header -> header + " of table '" + table.uniqueKey() + "'");
            for (String header : new String[] {"compression", "compress_type"}) {
                String ownCompression = props.get(header);
                if (ownCompression != null && !compressionOf(LoadFormats.forName(format.name(), header, props))
                        .equals(compressionOf(format))) {
                    throw new InvalidSinkOptionException("sink.properties." + header, "Invalid stream load "
                            + "property '" + header + "' = '" + ownCompression + "' for table '" + table.uniqueKey()
                            + "': the "
                            + "sink compresses every table's bodies alike ("
                            + compressionOf(format).map(Object::toString).orElse("not compressed") + ")");
                }
            }
        }
        return format;
    }

    private static java.util.Optional<io.lockstep.core.format.BodyCompression> compressionOf(LoadFormat format) {
        return format instanceof io.lockstep.core.format.CompressedLoadFormat c ? java.util.Optional.of(c.compression())
                : java.util.Optional.empty();
    }

    /**
     * Refuses a header set against one the format needs besides {@code format} (for JSON, {@code strip_outer_array}
     * other than true), naming it through {@code where}.
     */
    private static void checkFormatHeaders(LoadFormat format, Map<String, String> props,
                                           Function<String, String> where) {
        format.headers().forEach((header, needed) -> {
            String value = props.get(header);
            if (!header.equals("format") && value != null && !value.trim().equalsIgnoreCase(needed)) {
                throw new InvalidSinkOptionException("sink.properties." + header, "Invalid " + where.apply(header)
                        + " = '" + value + "': the sink sends each load as " + format.bodyShape() + "; expected '"
                        + needed + "' or no value");
            }
        });
    }

    private static TransactionClientConfig buildClientConfig(SinkConfig options) {
        String loadUrl = options.getLoadUrl();
        long socketTimeoutMs = options.getSocketTimeoutMs();
        long retryCapMs = Math.max(1, options.getRetryIntervalMs());
        long firstRetryMs = Math.min(500, retryCapMs);
        TransactionClientConfig.Builder b = TransactionClientConfig.builder()
                .loadUrls(LoadUrls.parse(loadUrl, SinkOptionDefinitions.LOAD_URL.key()))
                .username(options.getUsername())
                .password(options.getPassword())
                .connectTimeoutMs((int) options.getConnectTimeoutMs())
                .waitForContinueTimeoutMs((int) options.getWaitForContinueTimeoutMs())
                .maxRetries(options.getMaxRetries())
                .retryBackoff(firstRetryMs, retryCapMs)
                .runningTxnLimitWaitMs(options.getRunningTxnLimitWaitMs())
                .sanitizeErrorLog(options.isSanitizeErrorLog());
        AddressMap addressMap = options.getBeAddressMap();
        if (addressMap != null) {
            b.redirectAddressMap(addressMap);
        }
        if (socketTimeoutMs == 0) {
            b.socketTimeoutMs(Integer.MAX_VALUE);
        } else if (socketTimeoutMs > 0) {
            b.socketTimeoutMs((int) Math.min(Integer.MAX_VALUE, socketTimeoutMs));
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new InvalidSinkOptionException("sink", "The sink options cannot configure the HTTP client: "
                    + e.getMessage());
        }
    }
}
