package com.starrocks.connector.flink.table.sink;

import com.starrocks.data.load.stream.properties.StreamLoadTableProperties;
import io.lockstep.flink.config.SinkConfig;
import io.lockstep.flink.config.SinkConfigSource;
import io.lockstep.flink.config.TableLoadProperties;
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
 * <p>A facade: the options translate into Lockstep's typed {@link SinkConfig} ({@link #sinkConfig()}), which the
 * sinks work on; every getter below reads it.
 *
 * <p>Threading: configure (build, {@link #addTableProperties}) on one thread before the sink is
 * created; afterwards the instance is only read. {@link #toString()} masks the password.
 */
public class StarRocksSinkOptions implements SinkConfigSource, Serializable {

    private static final long serialVersionUID = 1L;

    /** Normalized options (sink.properties.* names lower-cased), validated. */
    private final TreeMap<String, String> options;
    /** Per-table stream load headers by {@code database.table}, in the order added. */
    private final LinkedHashMap<String, StreamLoadTableProperties> tableProperties = new LinkedHashMap<>();

    /** The typed form of {@link #options}, without the table properties. */
    private final SinkConfig config;

    private StarRocksSinkOptions(SinkConfig config) {
        this.options = new TreeMap<>(config.toOptions());
        this.config = config;
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
     * @return the typed configuration these options translate into, with the table properties added so far
     */
    @Override
    public SinkConfig sinkConfig() {
        List<TableLoadProperties> tables = new ArrayList<>();
        for (StreamLoadTableProperties table : tableProperties.values()) {
            tables.add(new TableLoadProperties(table.getDatabase(), table.getTable(), table.getProperties()));
        }
        return config.withTableProperties(tables);
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
        return config.getJdbcUrl();
    }

    /** @return the FE HTTP base URLs, normalized to {@code scheme://host:port}, never empty */
    public List<String> getLoadUrls() {
        return config.getLoadUrls();
    }

    /** @return the target database, or {@code *} to route by each row's database */
    public String getDatabaseName() {
        return config.getDatabaseName();
    }

    /** @return the target table, or {@code *} to route by each row's table */
    public String getTableName() {
        return config.getTableName();
    }

    /** @return the StarRocks user */
    public String getUsername() {
        return config.getUsername();
    }

    /** @return the password (empty if unset); never log it */
    public String getPassword() {
        return config.getPassword();
    }

    /** @return {@code sink.version} */
    public SinkVersion getSinkVersion() {
        return config.getSinkVersion();
    }

    /** @return {@code sink.semantic} */
    public SinkSemantic getSemantic() {
        return config.getSemantic();
    }

    /** @return {@code sink.label-prefix}, or {@code null} if unset */
    @Nullable
    public String getLabelPrefix() {
        return config.getLabelPrefix();
    }

    /** @return {@code sink.target}: the server family (StarRocks unless set) */
    public SinkTarget getTarget() {
        return SinkTarget.of(config.getTarget());
    }

    /** @return whether multi-table transaction mode is on */
    public boolean isMultiTableTransactionEnabled() {
        return config.isMultiTableTransactionEnabled();
    }

    /** @return multi-table global buffer size in bytes (soft limit; hard limit is twice this) */
    public long getMultiTableBufferSizeBytes() {
        return config.getMultiTableBufferSizeBytes();
    }

    /**
     * @return {@code sink.transaction.multi-table.job-id}, or {@code null} when not set (required only in
     *     the multi-table exactly-once mode)
     */
    public String getMultiTableJobId() {
        return config.getMultiTableJobId();
    }

    /** @return {@code sink.transaction.multi-table.progress-table} (default {@code lockstep_progress}) */
    public String getMultiTableProgressTable() {
        return config.getMultiTableProgressTable();
    }

    /** @return the commit interval in milliseconds ({@code sink.buffer-flush.interval-ms}) */
    public long getBufferFlushIntervalMs() {
        return config.getBufferFlushIntervalMs();
    }

    /** @return buffered bytes that trigger a flush in single-table modes */
    public long getBufferFlushMaxBytes() {
        return config.getBufferFlushMaxBytes();
    }

    /** @return retries of a retryable failure */
    public int getMaxRetries() {
        return config.getMaxRetries();
    }

    /** @return upper bound of the backoff between retries, in milliseconds */
    public long getRetryIntervalMs() {
        return config.getRetryIntervalMs();
    }

    /** @return HTTP connect timeout in milliseconds */
    public long getConnectTimeoutMs() {
        return config.getConnectTimeoutMs();
    }

    /** @return HTTP socket (read) timeout in milliseconds; -1 = client default, 0 = none */
    public long getSocketTimeoutMs() {
        return config.getSocketTimeoutMs();
    }

    /** @return period of the sink's background thread in milliseconds */
    public long getScanFrequencyMs() {
        return config.getScanFrequencyMs();
    }

    /** @return the server-side transaction timeout in seconds ({@code sink.properties.timeout}) */
    public int getStreamLoadTimeoutSeconds() {
        return config.getStreamLoadTimeoutSeconds();
    }

    /** @return the row format ({@code sink.properties.format}) */
    public StreamLoadFormat getStreamLoadFormat() {
        return config.getStreamLoadFormat();
    }

    /** @return whether a restored exactly-once job rolls back its lingering transactions */
    public boolean isAbortLingeringTransactions() {
        return config.isAbortLingeringTransactions();
    }

    /** @return labels to check for lingering transactions on restore; -1 = until the first unknown */
    public int getCheckNumLingeringTransactions() {
        return config.getCheckNumLingeringTransactions();
    }

    /**
     * @return the {@code sink.properties.*} options as given (prefix removed, names lower-case),
     *     read-only; no defaults added
     */
    public Map<String, String> getStreamLoadProperties() {
        return config.getStreamLoadProperties();
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
     * The effective stream load headers for loads into one table ({@link SinkConfig#streamLoadHeadersFor}): in
     * increasing precedence {@code timeout}, {@code format}, the JSON defaults, {@code strict_mode: true}, then every
     * {@code sink.properties.*}, then the table's own {@link StreamLoadTableProperties}. The sink adds {@code label},
     * {@code db}, {@code table} and authentication itself.
     *
     * @param database target database
     * @param table target table
     * @return header name (lower case) to value, read-only
     */
    public Map<String, String> streamLoadHeadersFor(String database, String table) {
        return sinkConfig().streamLoadHeadersFor(database, table);
    }

    /** @return the options as validated (sink.properties.* names lower-cased), password included, read-only */
    public Map<String, String> toMap() {
        return Collections.unmodifiableMap(options);
    }

    /** @return the options with the password replaced by {@code ***}, and the table properties */
    @Override
    public String toString() {
        return "StarRocksSinkOptions" + config.describe();
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
            return new StarRocksSinkOptions(SinkConfig.fromOptions(given));
        }
    }
}
