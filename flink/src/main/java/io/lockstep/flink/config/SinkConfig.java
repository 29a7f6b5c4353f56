package io.lockstep.flink.config;

import static io.lockstep.flink.options.SinkOptionDefinitions.SINK_PROPERTIES_PREFIX;

import io.lockstep.core.client.AddressMap;
import io.lockstep.core.format.CompressedLoadFormat;
import io.lockstep.core.format.LoadFormat;
import io.lockstep.core.format.LoadFormats;
import io.lockstep.core.server.Target;
import io.lockstep.flink.options.DorisOptionNames;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkOption;
import io.lockstep.flink.options.SinkOptionDefinitions;
import io.lockstep.flink.options.SinkOptionsValidator;
import io.lockstep.flink.options.SinkSemantic;
import io.lockstep.flink.options.SinkVersion;
import io.lockstep.flink.options.StreamLoadFormat;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import javax.annotation.Nullable;

/**
 * The sinks' validated, typed configuration: what every Lockstep sink, {@code SinkSettings} and {@code lockstep run}
 * work on. Built once from option key/values ({@link #fromOptions}: the Doris connector names are rewritten
 * ({@link DorisOptionNames}), {@link SinkOptionsValidator} checks every rule, then each value is parsed once into the
 * fields below) or with the typed {@link SinkConfigBuilder} ({@link #builder()}), which goes through the same
 * validation. Every key, type and default is the catalogue's, {@link SinkOptionDefinitions} (docs/options.md); the
 * StarRocks-compatible {@code StarRocksSinkOptions} is a facade that translates into this class.
 *
 * <p>Immutable and thread-safe; shipped to the subtasks by Java serialization. {@link #toString()} masks the password.
 * Equal configurations hold the same validated options and table properties.
 */
public final class SinkConfig implements SinkConfigSource, Serializable {
    private static final long serialVersionUID = 1L;

    /** The validated options (sink.properties.* names lower-cased), the source of every field below. */
    private final TreeMap<String, String> options;
    private final List<TableLoadProperties> tableProperties;

    private final String loadUrl;
    private final List<String> loadUrls;
    @Nullable private final String jdbcUrl;
    private final String database;
    private final String table;
    private final String username;
    private final String password;
    private final Target target;
    private final SinkVersion sinkVersion;
    private final SinkSemantic semantic;
    @Nullable private final String labelPrefix;
    private final boolean multiTable;
    private final long multiTableBufferSizeBytes;
    @Nullable private final String multiTableJobId;
    private final String multiTableProgressTable;
    private final long bufferFlushIntervalMs;
    private final long bufferFlushMaxBytes;
    private final int maxRetries;
    private final long retryIntervalMs;
    private final long connectTimeoutMs;
    private final long socketTimeoutMs;
    private final long waitForContinueTimeoutMs;
    private final long runningTxnLimitWaitMs;
    @Nullable private final AddressMap beAddressMap;
    private final boolean sanitizeErrorLog;
    private final long scanFrequencyMs;
    private final int streamLoadTimeoutSeconds;
    private final StreamLoadFormat streamLoadFormat;
    private final boolean abortLingeringTransactions;
    private final int checkNumLingeringTransactions;
    private final Map<String, String> streamLoadProperties;

    private SinkConfig(TreeMap<String, String> options, List<TableLoadProperties> tableProperties) {
        this.options = options;
        this.tableProperties = List.copyOf(tableProperties);
        this.loadUrl = options.get(SinkOptionDefinitions.LOAD_URL.key());
        this.loadUrls = List.copyOf(read(SinkOptionDefinitions.LOAD_URL));
        this.jdbcUrl = read(SinkOptionDefinitions.JDBC_URL);
        this.database = read(SinkOptionDefinitions.DATABASE_NAME);
        this.table = read(SinkOptionDefinitions.TABLE_NAME);
        this.username = read(SinkOptionDefinitions.USERNAME);
        this.password = read(SinkOptionDefinitions.PASSWORD);
        this.target = read(SinkOptionDefinitions.SINK_TARGET);
        this.sinkVersion = read(SinkOptionDefinitions.SINK_VERSION);
        this.semantic = read(SinkOptionDefinitions.SINK_SEMANTIC);
        this.labelPrefix = read(SinkOptionDefinitions.LABEL_PREFIX);
        this.multiTable = read(SinkOptionDefinitions.MULTI_TABLE_ENABLED);
        this.multiTableBufferSizeBytes = read(SinkOptionDefinitions.MULTI_TABLE_BUFFER_SIZE_BYTES);
        this.multiTableJobId = read(SinkOptionDefinitions.MULTI_TABLE_JOB_ID);
        this.multiTableProgressTable = read(SinkOptionDefinitions.MULTI_TABLE_PROGRESS_TABLE);
        this.bufferFlushIntervalMs = read(SinkOptionDefinitions.BUFFER_FLUSH_INTERVAL_MS);
        this.bufferFlushMaxBytes = read(SinkOptionDefinitions.BUFFER_FLUSH_MAX_BYTES);
        this.maxRetries = read(SinkOptionDefinitions.MAX_RETRIES);
        this.retryIntervalMs = read(SinkOptionDefinitions.RETRY_INTERVAL_MS);
        this.connectTimeoutMs = read(SinkOptionDefinitions.CONNECT_TIMEOUT_MS);
        this.socketTimeoutMs = read(SinkOptionDefinitions.SOCKET_TIMEOUT_MS);
        this.waitForContinueTimeoutMs = read(SinkOptionDefinitions.WAIT_FOR_CONTINUE_TIMEOUT_MS);
        this.runningTxnLimitWaitMs = read(SinkOptionDefinitions.RUNNING_TXN_LIMIT_WAIT_MS);
        this.beAddressMap = read(SinkOptionDefinitions.BE_ADDRESS_MAP);
        this.sanitizeErrorLog = read(SinkOptionDefinitions.SANITIZE_ERROR_LOG);
        this.scanFrequencyMs = read(SinkOptionDefinitions.SCAN_FREQUENCY_MS);
        this.streamLoadTimeoutSeconds = read(SinkOptionDefinitions.STREAM_LOAD_TIMEOUT_SECONDS);
        this.streamLoadFormat = read(SinkOptionDefinitions.STREAM_LOAD_FORMAT);
        this.abortLingeringTransactions = read(SinkOptionDefinitions.ABORT_LINGERING_TXN);
        this.checkNumLingeringTransactions = read(SinkOptionDefinitions.CHECK_NUM_LINGERING_TXN);
        Map<String, String> headers = new TreeMap<>();
        for (Map.Entry<String, String> entry : options.entrySet()) {
            if (entry.getKey().startsWith(SINK_PROPERTIES_PREFIX)) {
                headers.put(entry.getKey().substring(SINK_PROPERTIES_PREFIX.length()), entry.getValue());
            }
        }
        this.streamLoadProperties = Collections.unmodifiableMap(headers);
    }

    private <T> T read(SinkOption<T> option) {
        return option.valueIn(options);
    }

    /**
     * Validates and parses option key/values (keys and values as documented in docs/options.md).
     *
     * @param given option keys to values, as a user gives them
     * @return the configuration, without table properties
     * @throws InvalidSinkOptionException naming the first option that is unknown, missing, malformed or in a
     *                                    forbidden combination
     */
    public static SinkConfig fromOptions(Map<String, String> given) {
        Map<String, String> normalized = DorisOptionNames.resolve(SinkOptionsValidator.normalize(given));
        SinkOptionsValidator.validate(normalized);
        return new SinkConfig(new TreeMap<>(normalized), List.of());
    }

    /** @return a typed builder with no options set */
    public static SinkConfigBuilder builder() {
        return new SinkConfigBuilder();
    }

    /**
     * @param tables per-table stream load headers, each already checked against these options
     *               ({@link SinkOptionsValidator#validateTableProperties}), in the order added
     * @return this configuration with {@code tables} as its table properties
     */
    public SinkConfig withTableProperties(List<TableLoadProperties> tables) {
        return tables.equals(tableProperties) ? this : new SinkConfig(options, tables);
    }

    /** @return this configuration */
    @Override
    public SinkConfig sinkConfig() {
        return this;
    }

    /** @return the validated options as key/values (password included; never log them), read-only */
    public Map<String, String> toOptions() {
        return Collections.unmodifiableMap(options);
    }

    /** @return {@code load-url} as given (after {@code fenodes} rewriting), for the core's {@code LoadUrls} */
    public String getLoadUrl() {
        return loadUrl;
    }

    /** @return the FE HTTP base URLs, normalized to {@code scheme://host:port}, never empty */
    public List<String> getLoadUrls() {
        return loadUrls;
    }

    /** @return {@code jdbc-url}, the FE MySQL-protocol URL for optional probes, or {@code null} */
    @Nullable
    public String getJdbcUrl() {
        return jdbcUrl;
    }

    /** @return the target database, or {@code *} to route by each row's database */
    public String getDatabaseName() {
        return database;
    }

    /** @return the target table, or {@code *} to route by each row's table */
    public String getTableName() {
        return table;
    }

    /** @return the user */
    public String getUsername() {
        return username;
    }

    /** @return the password (empty if unset); never log it */
    public String getPassword() {
        return password;
    }

    /** @return {@code sink.target}: the server family */
    public Target getTarget() {
        return target;
    }

    /** @return {@code sink.version} */
    public SinkVersion getSinkVersion() {
        return sinkVersion;
    }

    /** @return {@code sink.semantic} */
    public SinkSemantic getSemantic() {
        return semantic;
    }

    /** @return {@code sink.label-prefix}, or {@code null} if unset */
    @Nullable
    public String getLabelPrefix() {
        return labelPrefix;
    }

    /** @return whether multi-table transaction mode is on */
    public boolean isMultiTableTransactionEnabled() {
        return multiTable;
    }

    /** @return multi-table global buffer size in bytes (soft limit; hard limit is twice this) */
    public long getMultiTableBufferSizeBytes() {
        return multiTableBufferSizeBytes;
    }

    /** @return {@code sink.transaction.multi-table.job-id}, or {@code null} when not set */
    @Nullable
    public String getMultiTableJobId() {
        return multiTableJobId;
    }

    /** @return {@code sink.transaction.multi-table.progress-table} (default {@code lockstep_progress}) */
    public String getMultiTableProgressTable() {
        return multiTableProgressTable;
    }

    /** @return the commit interval in milliseconds ({@code sink.buffer-flush.interval-ms}) */
    public long getBufferFlushIntervalMs() {
        return bufferFlushIntervalMs;
    }

    /** @return buffered bytes that trigger a flush in single-table modes */
    public long getBufferFlushMaxBytes() {
        return bufferFlushMaxBytes;
    }

    /** @return retries of a retryable failure */
    public int getMaxRetries() {
        return maxRetries;
    }

    /** @return upper bound of the backoff between retries, in milliseconds */
    public long getRetryIntervalMs() {
        return retryIntervalMs;
    }

    /** @return HTTP connect timeout in milliseconds */
    public long getConnectTimeoutMs() {
        return connectTimeoutMs;
    }

    /** @return HTTP socket (read) timeout in milliseconds; -1 = client default, 0 = none */
    public long getSocketTimeoutMs() {
        return socketTimeoutMs;
    }

    /** @return {@code sink.wait-for-continue.timeout-ms}, milliseconds */
    public long getWaitForContinueTimeoutMs() {
        return waitForContinueTimeoutMs;
    }

    /** @return {@code sink.running-txn-limit.wait-ms}, milliseconds */
    public long getRunningTxnLimitWaitMs() {
        return runningTxnLimitWaitMs;
    }

    /** @return {@code sink.be-address-map}, or {@code null} when not set */
    @Nullable
    public AddressMap getBeAddressMap() {
        return beAddressMap;
    }

    /** @return {@code sink.sanitize-error-log}: whether row values are cut out of error-log excerpts */
    public boolean isSanitizeErrorLog() {
        return sanitizeErrorLog;
    }

    /** @return period of the sink's background thread in milliseconds */
    public long getScanFrequencyMs() {
        return scanFrequencyMs;
    }

    /** @return the server-side transaction timeout in seconds ({@code sink.properties.timeout}) */
    public int getStreamLoadTimeoutSeconds() {
        return streamLoadTimeoutSeconds;
    }

    /** @return the row format ({@code sink.properties.format}) */
    public StreamLoadFormat getStreamLoadFormat() {
        return streamLoadFormat;
    }

    /** @return whether a restored exactly-once job rolls back its lingering transactions */
    public boolean isAbortLingeringTransactions() {
        return abortLingeringTransactions;
    }

    /** @return labels to check for lingering transactions on restore; -1 = until the first unknown */
    public int getCheckNumLingeringTransactions() {
        return checkNumLingeringTransactions;
    }

    /** @return the {@code sink.properties.*} options as given (prefix removed, names lower-case), read-only */
    public Map<String, String> getStreamLoadProperties() {
        return streamLoadProperties;
    }

    /** @return the per-table properties in the order added, read-only */
    public List<TableLoadProperties> getTableProperties() {
        return tableProperties;
    }

    /** @return the properties added for {@code database.table}, if any */
    public Optional<TableLoadProperties> findTableProperties(String database, String table) {
        return tableProperties.stream().filter(t -> t.database().equals(database) && t.table().equals(table))
                .findFirst();
    }

    /**
     * The effective stream load headers for loads into one table, in increasing precedence: {@code timeout} (the
     * effective {@code sink.properties.timeout}), {@code format}, the load format's own headers
     * ({@code io.lockstep.core.format.JsonLoadFormat}: {@code strip_outer_array: true}; CSV: {@code format: csv}) and
     * those only the target reads (CSV on Doris: {@code line_delimiter} for {@code row_delimiter})
     * ({@link Target#formatHeaders}: on StarRocks {@code ignore_json_size: true}, the StarRocks connector's default,
     * docs/protocol.md#what-the-official-starrocks-connector-does),
     * {@code strict_mode: true} (Lockstep's default, where StarRocks' and Doris' is false: a value that does not
     * convert to its column's type fails the load as a data error instead of being stored as NULL;
     * {@code sink.properties.strict_mode=false} restores the servers' default), then every {@code sink.properties.*},
     * then the table's own {@link TableLoadProperties}; last, with a compressed body, the compression as the target
     * reads it ({@code CompressedLoadFormat}: StarRocks {@code compression} or compressed-CSV {@code format}, Doris
     * {@code compress_type}). The sink adds {@code label}, {@code db}, {@code table} and authentication itself.
     *
     * @return header name (lower case) to value, read-only
     */
    public Map<String, String> streamLoadHeadersFor(String database, String table) {
        Map<String, String> headers = new TreeMap<>();
        headers.put("timeout", String.valueOf(streamLoadTimeoutSeconds));
        headers.put("format", streamLoadFormat.headerValue());
        LoadFormat format = loadFormatOrNull();
        if (format != null) {
            headers.putAll(format.headers());
            headers.putAll(target.formatHeaders(format)); // e.g. Doris' line_delimiter for row_delimiter
        }
        headers.put("strict_mode", "true"); // never NULL a bad value silently (docs/options.md)
        headers.putAll(streamLoadProperties);
        findTableProperties(database, table).ifPresent(p -> headers.putAll(p.headers()));
        if (format instanceof CompressedLoadFormat compressed) {
            // the compression as the target reads it (StarRocks CSV: format=gzip, ...), not the option's spelling
            headers.remove("compression");
            headers.remove("compress_type");
            headers.putAll(target == Target.DORIS ? compressed.dorisCompressionHeaders()
                    : compressed.starRocksCompressionHeaders());
        }
        return Collections.unmodifiableMap(headers);
    }

    /**
     * The load format the options name, with its separators and compression; null when the options name one the
     * sinks refuse, which {@code SinkSettings} reports naming the option.
     */
    private LoadFormat loadFormatOrNull() {
        try {
            return LoadFormats.forName(streamLoadFormat.headerValue(), "sink.properties.format", streamLoadProperties);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SinkConfig that && options.equals(that.options)
                && tableProperties.equals(that.tableProperties);
    }

    @Override
    public int hashCode() {
        return Objects.hash(options, tableProperties);
    }

    /** @return the options with secrets replaced by {@code ***}, and the table properties */
    @Override
    public String toString() {
        return "SinkConfig" + describe();
    }

    /**
     * @return {@code {key=value, ...}} with every secret option's value replaced by {@code ***}, then the table
     *     properties if any; for the facade's and this class's {@code toString}
     */
    public String describe() {
        Map<String, String> shown = new TreeMap<>(options);
        for (SinkOption<?> option : SinkOptionDefinitions.ALL) {
            if (option.isSecret() && shown.containsKey(option.key())) {
                shown.put(option.key(), "***");
            }
        }
        return shown + (tableProperties.isEmpty() ? "" : " " + new ArrayList<>(tableProperties));
    }
}
