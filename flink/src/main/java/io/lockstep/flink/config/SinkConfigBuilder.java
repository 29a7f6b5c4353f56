package io.lockstep.flink.config;

import io.lockstep.core.server.Target;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkOption;
import io.lockstep.flink.options.SinkOptionDefinitions;
import io.lockstep.flink.options.SinkSemantic;
import io.lockstep.flink.options.SinkVersion;
import io.lockstep.flink.options.StreamLoadFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Builds a {@link SinkConfig} from typed values: each setter stands for one catalogue option
 * ({@link SinkOptionDefinitions}, docs/options.md) and {@link #build()} validates the whole as {@link
 * SinkConfig#fromOptions} does, so a typed configuration and the same options given as text are equal. Options without
 * a typed setter (e.g. a user's {@code --sink-option key=value}) go through {@link #option}. A later value for the same
 * option replaces the earlier one. Not thread safe.
 */
public final class SinkConfigBuilder {
    private final Map<String, String> given = new LinkedHashMap<>();

    SinkConfigBuilder() {
    }

    /** @param loadUrl {@code load-url}: FE HTTP addresses, {@code host:port;host:port} */
    public SinkConfigBuilder loadUrl(String loadUrl) {
        return set(SinkOptionDefinitions.LOAD_URL, loadUrl);
    }

    /** @param jdbcUrl {@code jdbc-url}: the FE MySQL-protocol URL for optional probes */
    public SinkConfigBuilder jdbcUrl(String jdbcUrl) {
        return set(SinkOptionDefinitions.JDBC_URL, jdbcUrl);
    }

    /** @param database {@code database-name}, or {@code *} to route by each row's database */
    public SinkConfigBuilder database(String database) {
        return set(SinkOptionDefinitions.DATABASE_NAME, database);
    }

    /** @param table {@code table-name}, or {@code *} to route by each row's table */
    public SinkConfigBuilder table(String table) {
        return set(SinkOptionDefinitions.TABLE_NAME, table);
    }

    /** @param username {@code username} */
    public SinkConfigBuilder username(String username) {
        return set(SinkOptionDefinitions.USERNAME, username);
    }

    /** @param password {@code password}; never logged */
    public SinkConfigBuilder password(String password) {
        return set(SinkOptionDefinitions.PASSWORD, password);
    }

    /** @param target {@code sink.target}: the server family */
    public SinkConfigBuilder target(Target target) {
        return set(SinkOptionDefinitions.SINK_TARGET, target.optionValue());
    }

    /** @param version {@code sink.version} */
    public SinkConfigBuilder sinkVersion(SinkVersion version) {
        return set(SinkOptionDefinitions.SINK_VERSION, version.name());
    }

    /** @param semantic {@code sink.semantic} */
    public SinkConfigBuilder semantic(SinkSemantic semantic) {
        return set(SinkOptionDefinitions.SINK_SEMANTIC, semantic.optionValue());
    }

    /** @param enabled {@code sink.transaction.multi-table.enabled} */
    public SinkConfigBuilder multiTable(boolean enabled) {
        return set(SinkOptionDefinitions.MULTI_TABLE_ENABLED, Boolean.toString(enabled));
    }

    /** @param jobId {@code sink.transaction.multi-table.job-id} (multi-table exactly-once) */
    public SinkConfigBuilder multiTableJobId(String jobId) {
        return set(SinkOptionDefinitions.MULTI_TABLE_JOB_ID, jobId);
    }

    /** @param prefix {@code sink.label-prefix} */
    public SinkConfigBuilder labelPrefix(String prefix) {
        return set(SinkOptionDefinitions.LABEL_PREFIX, prefix);
    }

    /** @param intervalMs {@code sink.buffer-flush.interval-ms}: the commit interval, milliseconds */
    public SinkConfigBuilder commitIntervalMs(long intervalMs) {
        return set(SinkOptionDefinitions.BUFFER_FLUSH_INTERVAL_MS, Long.toString(intervalMs));
    }

    /** @param retries {@code sink.max-retries} */
    public SinkConfigBuilder maxRetries(int retries) {
        return set(SinkOptionDefinitions.MAX_RETRIES, Integer.toString(retries));
    }

    /** @param format {@code sink.properties.format} */
    public SinkConfigBuilder streamLoadFormat(StreamLoadFormat format) {
        return set(SinkOptionDefinitions.STREAM_LOAD_FORMAT, format.headerValue());
    }

    /**
     * @param header a stream load header name, as {@code sink.properties.<header>}
     * @param value  its value
     */
    public SinkConfigBuilder streamLoadProperty(String header, String value) {
        return option(SinkOptionDefinitions.SINK_PROPERTIES_PREFIX + header, value);
    }

    /**
     * Sets an option by its key as text, for options without a typed setter (e.g. given by a user).
     *
     * @param key   option key, e.g. {@code sink.semantic} or {@code sink.properties.columns}
     * @param value option value as text
     */
    public SinkConfigBuilder option(String key, String value) {
        given.put(Objects.requireNonNull(key, "sink option key"), value);
        return this;
    }

    /**
     * Sets several options by key as text, as {@link #option} for each entry.
     *
     * @param options option keys to values
     */
    public SinkConfigBuilder options(Map<String, String> options) {
        options.forEach(this::option);
        return this;
    }

    /**
     * Sets every option of {@code config} (not its table properties), e.g. to build a variant of it.
     *
     * @param config a configuration
     */
    public SinkConfigBuilder options(SinkConfig config) {
        given.putAll(config.toOptions());
        return this;
    }

    private SinkConfigBuilder set(SinkOption<?> option, String text) {
        return option(option.key(), text);
    }

    /**
     * @return the validated configuration
     * @throws InvalidSinkOptionException naming the first option that is missing, malformed or in a forbidden
     *                                    combination
     */
    public SinkConfig build() {
        return SinkConfig.fromOptions(given);
    }
}
