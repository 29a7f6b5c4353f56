package com.starrocks.connector.flink.table.sink;

import static io.lockstep.flink.options.SinkOptionDefinitions.SINK_PROPERTIES_PREFIX;

import com.starrocks.data.load.stream.properties.StreamLoadTableProperties;
import io.lockstep.flink.options.DorisOptionNames;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkOption;
import io.lockstep.flink.options.SinkOptionDefinitions;
import io.lockstep.flink.options.SinkOptionsValidator;
import io.lockstep.flink.options.SinkSemantic;
import io.lockstep.flink.options.SinkTarget;
import io.lockstep.flink.options.SinkVersion;
import io.lockstep.flink.options.StreamLoadFormat;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.annotation.Nullable;

/**
 * Validated options of the StarRocks sink, built from string key/value pairs as documented (the configuration and the
 * complete example of StarRocks' multi-table transaction guide,
 * https://docs.starrocks.io/docs/loading/Flink_multi_table_transaction/):
 * {@code StarRocksSinkOptions.builder().withProperty("load-url", "127.0.0.1:8030")...build()}.
 *
 * <p>Every key, type and default comes from the catalogue {@link SinkOptionDefinitions} (rendered
 * in {@code docs/options.md}); {@link #get(SinkOption)} reads any entry, the typed getters below are
 * shorthands. {@link Builder#build()} runs {@link SinkOptionsValidator}: unknown keys, missing
 * required options, malformed values and forbidden combinations fail with an
 * {@link InvalidSinkOptionException} naming the option.
 *
 * <p>Threading: configure (build, {@link #addTableProperties}) on one thread before the sink is
 * created; afterwards the instance is only read, and it is shipped to the subtasks by Java
 * serialization. {@link #toString()} masks the password.
 */
public class StarRocksSinkOptions implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Normalized options (sink.properties.* names lower-cased), validated. */
    private final TreeMap<String, String> options;
    /** Per-table stream load headers by {@code database.table}, in the order added. */
    private final LinkedHashMap<String, StreamLoadTableProperties> tableProperties = new LinkedHashMap<>();

    private StarRocksSinkOptions(TreeMap<String, String> options) {
        this.options = options;
    }

    /** @return a builder with no options set */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Adds stream load headers for one table; they override {@code sink.properties.*} for loads
     * into that table.
     *
     * @param properties the table's headers
     * @return this options object
     * @throws InvalidSinkOptionException if properties for the same table were already added, the
     *     table does not match a fixed {@code database-name} / {@code table-name}, or a header breaks
     *     a rule (bad {@code timeout} / {@code format}, {@code enable_merge_commit=true}, reserved name)
     */
    public StarRocksSinkOptions addTableProperties(StreamLoadTableProperties properties) {
        String key = properties.getUniqueKey();
        if (tableProperties.containsKey(key)) {
            throw new InvalidSinkOptionException(SinkOptionDefinitions.TABLE_NAME.key(),
                    "Stream load table properties for '" + key + "' were already added; add one "
                            + "StreamLoadTableProperties per table");
        }
        SinkOptionsValidator.validateTableProperties(options, properties.getDatabase(),
                properties.getTable(), properties.getProperties());
        tableProperties.put(key, properties);
        return this;
    }

    /**
     * Reads one catalogue option.
     *
     * @param option an entry of {@link SinkOptionDefinitions}
     * @param <T> its value type
     * @return the configured value, else the option's default (may be {@code null} for options
     *     without default, e.g. {@code jdbc-url})
     */
    @Nullable
    public <T> T get(SinkOption<T> option) {
        return option.valueIn(options);
    }

    /** @return the FE MySQL-protocol URL for optional probes, or {@code null} */
    @Nullable
    public String getJdbcUrl() {
        return get(SinkOptionDefinitions.JDBC_URL);
    }

    /** @return the FE HTTP base URLs, normalized to {@code scheme://host:port}, never empty */
    public List<String> getLoadUrls() {
        return get(SinkOptionDefinitions.LOAD_URL);
    }

    /** @return the target database, or {@code *} to route by each row's database */
    public String getDatabaseName() {
        return get(SinkOptionDefinitions.DATABASE_NAME);
    }

    /** @return the target table, or {@code *} to route by each row's table */
    public String getTableName() {
        return get(SinkOptionDefinitions.TABLE_NAME);
    }

    /** @return the StarRocks user */
    public String getUsername() {
        return get(SinkOptionDefinitions.USERNAME);
    }

    /** @return the password (empty if unset); never log it */
    public String getPassword() {
        return get(SinkOptionDefinitions.PASSWORD);
    }

    /** @return {@code sink.version} */
    public SinkVersion getSinkVersion() {
        return get(SinkOptionDefinitions.SINK_VERSION);
    }

    /** @return {@code sink.semantic} */
    public SinkSemantic getSemantic() {
        return get(SinkOptionDefinitions.SINK_SEMANTIC);
    }

    /** @return {@code sink.label-prefix}, or {@code null} if unset */
    @Nullable
    public String getLabelPrefix() {
        return get(SinkOptionDefinitions.LABEL_PREFIX);
    }

    /** @return {@code sink.target}: the server family (StarRocks unless set) */
    public SinkTarget getTarget() {
        return SinkTarget.of(get(SinkOptionDefinitions.SINK_TARGET));
    }

    /** @return whether multi-table transaction mode is on */
    public boolean isMultiTableTransactionEnabled() {
        return get(SinkOptionDefinitions.MULTI_TABLE_ENABLED);
    }

    /** @return multi-table global buffer size in bytes (soft limit; hard limit is twice this) */
    public long getMultiTableBufferSizeBytes() {
        return get(SinkOptionDefinitions.MULTI_TABLE_BUFFER_SIZE_BYTES);
    }

    /**
     * @return {@code sink.transaction.multi-table.job-id}, or {@code null} when not set (required only in
     *     the multi-table exactly-once mode)
     */
    public String getMultiTableJobId() {
        return get(SinkOptionDefinitions.MULTI_TABLE_JOB_ID);
    }

    /** @return {@code sink.transaction.multi-table.progress-table} (default {@code lockstep_progress}) */
    public String getMultiTableProgressTable() {
        return get(SinkOptionDefinitions.MULTI_TABLE_PROGRESS_TABLE);
    }

    /** @return the commit interval in milliseconds ({@code sink.buffer-flush.interval-ms}) */
    public long getBufferFlushIntervalMs() {
        return get(SinkOptionDefinitions.BUFFER_FLUSH_INTERVAL_MS);
    }

    /** @return buffered bytes that trigger a flush in single-table modes */
    public long getBufferFlushMaxBytes() {
        return get(SinkOptionDefinitions.BUFFER_FLUSH_MAX_BYTES);
    }

    /** @return retries of a retryable failure */
    public int getMaxRetries() {
        return get(SinkOptionDefinitions.MAX_RETRIES);
    }

    /** @return upper bound of the backoff between retries, in milliseconds */
    public long getRetryIntervalMs() {
        return get(SinkOptionDefinitions.RETRY_INTERVAL_MS);
    }

    /** @return HTTP connect timeout in milliseconds */
    public long getConnectTimeoutMs() {
        return get(SinkOptionDefinitions.CONNECT_TIMEOUT_MS);
    }

    /** @return HTTP socket (read) timeout in milliseconds; -1 = client default, 0 = none */
    public long getSocketTimeoutMs() {
        return get(SinkOptionDefinitions.SOCKET_TIMEOUT_MS);
    }

    /** @return period of the sink's background thread in milliseconds */
    public long getScanFrequencyMs() {
        return get(SinkOptionDefinitions.SCAN_FREQUENCY_MS);
    }

    /** @return the server-side transaction timeout in seconds ({@code sink.properties.timeout}) */
    public int getStreamLoadTimeoutSeconds() {
        return get(SinkOptionDefinitions.STREAM_LOAD_TIMEOUT_SECONDS);
    }

    /** @return the row format ({@code sink.properties.format}) */
    public StreamLoadFormat getStreamLoadFormat() {
        return get(SinkOptionDefinitions.STREAM_LOAD_FORMAT);
    }

    /** @return whether a restored exactly-once job rolls back its lingering transactions */
    public boolean isAbortLingeringTransactions() {
        return get(SinkOptionDefinitions.ABORT_LINGERING_TXN);
    }

    /** @return labels to check for lingering transactions on restore; -1 = until the first unknown */
    public int getCheckNumLingeringTransactions() {
        return get(SinkOptionDefinitions.CHECK_NUM_LINGERING_TXN);
    }

    /**
     * @return the {@code sink.properties.*} options as given (prefix removed, names lower-case),
     *     read-only; no defaults added
     */
    public Map<String, String> getStreamLoadProperties() {
        Map<String, String> headers = new TreeMap<>();
        for (Map.Entry<String, String> entry : options.entrySet()) {
            if (entry.getKey().startsWith(SINK_PROPERTIES_PREFIX)) {
                headers.put(entry.getKey().substring(SINK_PROPERTIES_PREFIX.length()), entry.getValue());
            }
        }
        return Collections.unmodifiableMap(headers);
    }

    /** @return the per-table properties in the order added, read-only */
    public List<StreamLoadTableProperties> getTableProperties() {
        return Collections.unmodifiableList(new ArrayList<>(tableProperties.values()));
    }

    /**
     * @param database a target database
     * @param table a target table
     * @return the properties added for that table, if any
     */
    public Optional<StreamLoadTableProperties> findTableProperties(String database, String table) {
        return Optional.ofNullable(tableProperties.get(database + "." + table));
    }

    /**
     * The effective stream load headers for loads into one table, in increasing precedence: {@code timeout} (the
     * effective {@code sink.properties.timeout}), {@code format}, for JSON {@code strip_outer_array: true} and, for
     * StarRocks only, {@code ignore_json_size: true} (the StarRocks connector's JSON defaults,
     * docs/protocol.md#what-the-official-starrocks-connector-does), {@code strict_mode: true} (Lockstep's default,
     * where StarRocks' and Doris' is false: a value that does not convert to its column's type fails the load as a
     * data error instead of being stored as NULL; {@code sink.properties.strict_mode=false} restores the servers'
     * default), then every {@code sink.properties.*}, then the table's own {@link StreamLoadTableProperties}. The
     * sink adds {@code label}, {@code db}, {@code table} and authentication itself.
     *
     * @param database target database
     * @param table target table
     * @return header name (lower case) to value, read-only
     */
    public Map<String, String> streamLoadHeadersFor(String database, String table) {
        Map<String, String> headers = new TreeMap<>();
        headers.put("timeout", String.valueOf(getStreamLoadTimeoutSeconds()));
        StreamLoadFormat format = getStreamLoadFormat();
        headers.put("format", format.headerValue());
        if (format == StreamLoadFormat.JSON) {
            headers.put("strip_outer_array", "true");
            headers.putAll(get(SinkOptionDefinitions.SINK_TARGET).jsonLoadDefaults());
        }
        headers.put("strict_mode", "true"); // never NULL a bad value silently (docs/options.md)
        headers.putAll(getStreamLoadProperties());
        findTableProperties(database, table).ifPresent(p -> headers.putAll(p.getProperties()));
        return Collections.unmodifiableMap(headers);
    }

    /** @return the options as validated (sink.properties.* names lower-cased), password included, read-only */
    public Map<String, String> toMap() {
        return Collections.unmodifiableMap(options);
    }

    /** @return the options with the password replaced by {@code ***}, and the table properties */
    @Override
    public String toString() {
        Map<String, String> shown = new TreeMap<>(options);
        for (SinkOption<?> option : SinkOptionDefinitions.ALL) {
            if (option.isSecret() && shown.containsKey(option.key())) {
                shown.put(option.key(), "***");
            }
        }
        return "StarRocksSinkOptions" + shown + (tableProperties.isEmpty() ? "" : " " + tableProperties.values());
    }

    /**
     * Collects options as strings; {@link #build()} validates them. Not thread safe.
     */
    public static final class Builder {
        private final Map<String, String> given = new LinkedHashMap<>();

        private Builder() {
        }

        /**
         * Sets one option; a later value for the same key replaces the earlier one.
         *
         * @param key option key, e.g. {@code sink.semantic} or {@code sink.properties.format}
         * @param value option value as text
         * @return this builder
         * @throws NullPointerException if {@code key} is null
         */
        public Builder withProperty(String key, String value) {
            if (key == null) {
                throw new NullPointerException("sink option key is null (value '"
                        + (value == null ? "null" : "...") + "')");
            }
            given.put(key, value);
            return this;
        }

        /**
         * Sets several options, as {@link #withProperty} for each entry.
         *
         * @param properties option keys to values
         * @return this builder
         */
        public Builder withProperties(Map<String, String> properties) {
            properties.forEach(this::withProperty);
            return this;
        }

        /**
         * @return validated options
         * @throws InvalidSinkOptionException naming the first option that is unknown, missing,
         *     malformed or in a forbidden combination
         */
        public StarRocksSinkOptions build() {
            Map<String, String> normalized = DorisOptionNames.resolve(SinkOptionsValidator.normalize(given));
            SinkOptionsValidator.validate(normalized);
            return new StarRocksSinkOptions(new TreeMap<>(normalized));
        }
    }
}
