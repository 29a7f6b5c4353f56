package io.lockstep.core.engine;

import io.lockstep.core.format.JsonLoadFormat;
import io.lockstep.core.format.LoadFormat;
import io.lockstep.core.label.LabelGenerator;
import io.lockstep.core.progress.ProgressSettings;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of one engine (one sink subtask). Immutable; build with {@link #builder()}. Every default is stated on
 * its builder method. Validation happens in {@link Builder#build()} and names the setting at fault.
 */
public final class LoadEngineConfig {
    /** {@code sink.transaction.multi-table.buffer-size} default: 128 MiB. */
    public static final long DEFAULT_BUFFER_SIZE_BYTES = 134_217_728L;

    private final String labelPrefix;
    private final int subtaskIndex;
    private final String runId;
    private final String database;
    private final long commitIntervalMs;
    private final long scanningFrequencyMs;
    private final long bufferSizeBytes;
    private final int serverTimeoutSeconds;
    private final long maxBlockMs;
    /** -1: derived from the buffer size. */
    private final long minLoadRowBytes;
    private final long flushTimeoutMs;
    private final long closeTimeoutMs;
    private final int ioThreads;
    private final LoadMethod loadMethod;
    private final LoadFormat loadFormat;
    private final TableLoadHeaders loadHeaders;
    /** Exactly-once mode: job id and progress table; null in at-least-once mode. */
    private final ProgressSettings progress;

    private LoadEngineConfig(Builder b) {
        this.labelPrefix = b.labelPrefix;
        this.subtaskIndex = b.subtaskIndex;
        this.runId = b.runId;
        this.database = b.database;
        this.commitIntervalMs = b.commitIntervalMs;
        this.scanningFrequencyMs = b.scanningFrequencyMs;
        this.bufferSizeBytes = b.bufferSizeBytes;
        this.serverTimeoutSeconds = b.serverTimeoutSeconds;
        this.maxBlockMs = b.maxBlockMs;
        this.minLoadRowBytes = b.minLoadRowBytes;
        this.flushTimeoutMs = b.flushTimeoutMs;
        this.closeTimeoutMs = b.closeTimeoutMs;
        this.ioThreads = b.ioThreads;
        this.loadMethod = b.loadMethod;
        this.loadFormat = b.loadFormat;
        this.loadHeaders = b.loadHeaders;
        this.progress = b.progress;
    }

    /**
     * The multi-table exactly-once settings (job id, progress table), or null in at-least-once mode. When set, every
     * shared transaction also loads the progress rows of the source transactions it covers, and the engine's
     * database is the progress table's.
     */
    public ProgressSettings progress() {
        return progress;
    }

    /** A builder with the documented defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Label prefix of every label this engine makes. */
    public String labelPrefix() {
        return labelPrefix;
    }

    /** The sink subtask index, part of every label. */
    public int subtaskIndex() {
        return subtaskIndex;
    }

    /** The run identity used in labels (see {@link LabelGenerator}). */
    public String runId() {
        return runId;
    }

    /** The one database of this engine, or null when it is taken from the first row written. */
    public String database() {
        return database;
    }

    /** Commit interval ({@code sink.buffer-flush.interval-ms}), ms. */
    public long commitIntervalMs() {
        return commitIntervalMs;
    }

    /**
     * The manager thread's scanning frequency, ms: it sleeps until its next deadline or a signal, not periodically;
     * this bounds how late a clean partition freezes under memory pressure (multi-table) and how long the
     * single-table engine's manager sleeps at most.
     */
    public long scanningFrequencyMs() {
        return scanningFrequencyMs;
    }

    /** The soft limit; the hard limit is twice this. */
    public long bufferSizeBytes() {
        return bufferSizeBytes;
    }

    /**
     * Row bytes one multi-table load takes at most (more only when a single chunk is larger): a load's body is a copy
     * of its chunks, held next to them until the reply, so this bounds the heap a load adds to the buffered bytes:
     * buffer-size / 8, between 1 and 16 MiB.
     */
    public long maxLoadRowBytes() {
        return Math.min(16L << 20, Math.max(1L << 20, bufferSizeBytes / 8));
    }

    /**
     * Row bytes a table's frozen chunks must hold before the open shared transaction loads them; below it they wait
     * for the commit, memory pressure, or at most a second. Default: a quarter of {@link #maxLoadRowBytes()}, at most buffer-size / 8
     * (4 MiB at the default buffer-size).
     */
    public long minLoadRowBytes() {
        return minLoadRowBytes >= 0 ? minLoadRowBytes : Math.min(maxLoadRowBytes() / 4, bufferSizeBytes / 8);
    }

    /** Hard buffer limit: 2 × {@link #bufferSizeBytes()}. */
    public long hardLimitBytes() {
        return 2 * bufferSizeBytes;
    }

    /** Server-side transaction timeout sent on begin, seconds (docs/protocol.md#timeouts-limits-and-concurrency). */
    public int serverTimeoutSeconds() {
        return serverTimeoutSeconds;
    }

    /** {@code min(1000, max(100, commitIntervalMs / 10))} ms (docs/architecture.md#the-multi-table-commit-cycle). */
    public long miniIntervalMs() {
        return Math.min(1000, Math.max(100, commitIntervalMs / 10));
    }

    /**
     * The shared transaction is recycled after 80% of the server timeout
     * (docs/protocol.md#what-the-official-starrocks-connector-does), ms.
     */
    public long recycleAfterMs() {
        return serverTimeoutSeconds * 800L;
    }

    /** Longest wait of a write at the hard buffer limit, ms. */
    public long maxBlockMs() {
        return maxBlockMs;
    }

    /** Longest wait of a blocking flush, flush or prepare, ms. */
    public long flushTimeoutMs() {
        return flushTimeoutMs;
    }

    /** Longest wait for the manager thread at close (twice if it must be interrupted), ms. */
    public long closeTimeoutMs() {
        return closeTimeoutMs;
    }

    /** Threads sending loads. */
    public int ioThreads() {
        return ioThreads;
    }

    /** How the single-table engine loads: {@link LoadMethod#TRANSACTION} (default) or {@link LoadMethod#CLASSIC}. */
    public LoadMethod loadMethod() {
        return loadMethod;
    }

    /** How rows are checked and framed into load bodies, and the headers that declare it (default JSON). */
    public LoadFormat loadFormat() {
        return loadFormat;
    }

    /**
     * The stream load headers for loads into {@code database.table}: the format's, overlaid with the defaults, then
     * with the table's own. Identical for every load of one (label, table), as the server requires
     * (docs/protocol.md#load-headers).
     */
    public Map<String, String> loadPropertiesFor(String database, String table) {
        return loadFormat.loadHeaders(database, table, loadHeaders.forTable(database, table));
    }

    /**
     * Task thread: the bytes buffered for one row of {@code database.table} ({@link LoadFormat#encodeRow}: the row
     * itself for JSON, its CSV record for CSV).
     *
     * @throws IllegalArgumentException naming the table (and the column) if the format cannot write the row
     */
    public byte[] encodeRow(String database, String table, byte[] row) {
        return loadFormat.encodeRow(database, table, row, loadHeaders.forTable(database, table));
    }

    /** Builder; every setter documents its default. */
    public static final class Builder {
        private String labelPrefix = "lockstep";
        private int subtaskIndex;
        private String runId;
        private String database;
        private long commitIntervalMs = 1000;
        private long scanningFrequencyMs = 50;
        private long bufferSizeBytes = DEFAULT_BUFFER_SIZE_BYTES;
        private int serverTimeoutSeconds = 600;
        private long maxBlockMs = 300_000;
        private long minLoadRowBytes = -1;
        private long flushTimeoutMs = 600_000;
        private long closeTimeoutMs = 30_000;
        private int ioThreads = 2;
        private LoadMethod loadMethod = LoadMethod.TRANSACTION;
        private LoadFormat loadFormat = JsonLoadFormat.INSTANCE;
        private final Map<String, String> defaultLoadProperties = new LinkedHashMap<>();
        private final Map<String, Map<String, String>> tableLoadProperties = new HashMap<>();
        private TableLoadHeaders loadHeaders;
        private ProgressSettings progress;

        private Builder() {
        }

        /**
         * Multi-table exactly-once: commit source positions into {@code value.table()} with the data; default null
         * (at-least-once). Fixes the database to the progress table's.
         */
        public Builder progress(ProgressSettings value) {
            this.progress = value;
            return this;
        }

        /** Label prefix, default {@code lockstep}; 1..48 characters of {@code [A-Za-z0-9_-]}. */
        public Builder labelPrefix(String value) {
            this.labelPrefix = value;
            return this;
        }

        /** This sink subtask's index, default 0. */
        public Builder subtaskIndex(int value) {
            this.subtaskIndex = value;
            return this;
        }

        /** Run identity for labels, default a fresh {@link io.lockstep.core.label.RunId#random}. */
        public Builder runId(String value) {
            this.runId = value;
            return this;
        }

        /** The database of every table, default null: taken from the first row and then enforced. */
        public Builder database(String value) {
            this.database = value;
            return this;
        }

        /** {@code sink.buffer-flush.interval-ms}: commit interval, default 1000 ms. */
        public Builder commitIntervalMs(long value) {
            this.commitIntervalMs = value;
            return this;
        }

        /** The scanning frequency ({@link LoadEngineConfig#scanningFrequencyMs()}), default 50 ms. */
        public Builder scanningFrequencyMs(long value) {
            this.scanningFrequencyMs = value;
            return this;
        }

        /** {@code sink.transaction.multi-table.buffer-size}, default 134217728 bytes; hard limit is twice it. */
        public Builder bufferSizeBytes(long value) {
            this.bufferSizeBytes = value;
            return this;
        }

        /** Server-side transaction timeout sent on begin ({@code timeout} header), default 600 s. */
        public Builder serverTimeoutSeconds(int value) {
            this.serverTimeoutSeconds = value;
            return this;
        }

        /**
         * Multi-table engine: row bytes a table's frozen chunks must hold before the open shared transaction loads
         * them (fewer, larger loads; the commit loads the rest); 0 loads every frozen chunk at once. Default: derived
         * from the buffer size ({@link LoadEngineConfig#minLoadRowBytes()}).
         */
        public Builder minLoadRowBytes(long value) {
            if (value < 0) {
                throw new IllegalArgumentException("minLoadRowBytes must be >= 0, got " + value);
            }
            this.minLoadRowBytes = value;
            return this;
        }

        /** Longest time a write may block at the hard buffer limit before failing, default 300000 ms. */
        public Builder maxBlockMs(long value) {
            this.maxBlockMs = value;
            return this;
        }

        /** Longest time {@code flush()} waits for load and commit, default 600000 ms. */
        public Builder flushTimeoutMs(long value) {
            this.flushTimeoutMs = value;
            return this;
        }

        /** Longest time {@code close()} waits for the manager thread, default 30000 ms. */
        public Builder closeTimeoutMs(long value) {
            this.closeTimeoutMs = value;
            return this;
        }

        /** Threads sending loads (one load per table at a time), default 2. */
        public Builder ioThreads(int value) {
            this.ioThreads = value;
            return this;
        }

        /**
         * Load method of the single-table engine, default {@link LoadMethod#TRANSACTION}. {@link LoadMethod#CLASSIC}
         * is at-least-once only: the single-table engine refuses it with {@link DeliverySemantic#EXACTLY_ONCE}.
         * The multi-table engine always uses transactions and ignores this setting.
         */
        public Builder loadMethod(LoadMethod value) {
            this.loadMethod = Objects.requireNonNull(value, "loadMethod");
            return this;
        }

        /**
         * The load format, default {@link JsonLoadFormat}; choose one by name with
         * {@link io.lockstep.core.format.LoadFormats#forName}.
         */
        public Builder loadFormat(LoadFormat value) {
            this.loadFormat = Objects.requireNonNull(value, "loadFormat");
            return this;
        }

        /**
         * A stream load header for every table ({@code sink.properties.*}), overlaid on the load format's
         * ({@link LoadFormat#headers()}: format=json, strip_outer_array=true by default).
         */
        public Builder loadProperty(String key, String value) {
            defaultLoadProperties.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** Stream load headers for one table, overlaid on the defaults. */
        public Builder tableLoadProperties(String database, String table, Map<String, String> properties) {
            tableLoadProperties.computeIfAbsent(database + "." + table, k -> new LinkedHashMap<>()).putAll(properties);
            return this;
        }

        /**
         * @throws IllegalArgumentException naming the setting at fault: bad label prefix, non-positive interval or
         *                                  size, a commit interval not below 80% of the server timeout (the shared
         *                                  transaction would expire first,
         *                                  docs/architecture.md#rules-from-field-reports), or load properties that
         *                                  do not declare the load format ({@link LoadFormat#checkHeaders})
         */
        public LoadEngineConfig build() {
            LabelGenerator.validatePrefix(labelPrefix);
            if (runId == null) {
                runId = io.lockstep.core.label.RunId.random(io.lockstep.core.time.Ticker.system());
            }
            positive("commitIntervalMs", commitIntervalMs);
            positive("scanningFrequencyMs", scanningFrequencyMs);
            positive("bufferSizeBytes", bufferSizeBytes);
            positive("serverTimeoutSeconds", serverTimeoutSeconds);
            positive("maxBlockMs", maxBlockMs);
            positive("flushTimeoutMs", flushTimeoutMs);
            positive("closeTimeoutMs", closeTimeoutMs);
            positive("ioThreads", ioThreads);
            if (subtaskIndex < 0) {
                throw new IllegalArgumentException("subtaskIndex must be >= 0, was " + subtaskIndex);
            }
            if (bufferSizeBytes > Long.MAX_VALUE / 2) {
                throw new IllegalArgumentException("bufferSizeBytes is too large: " + bufferSizeBytes);
            }
            if (commitIntervalMs >= serverTimeoutSeconds * 800L) {
                throw new IllegalArgumentException("commitIntervalMs (" + commitIntervalMs + ") must be below 80% of "
                        + "serverTimeoutSeconds (" + serverTimeoutSeconds + " s), or the shared transaction expires "
                        + "on the server before it is committed");
            }
            if (progress != null) {
                if (database != null && !database.equals(progress.table().database())) {
                    throw new IllegalArgumentException("database '" + database + "' differs from the progress table's "
                            + "database '" + progress.table().database() + "': the progress rows are loaded in the "
                            + "same transaction as the data");
                }
                database = progress.table().database();
            }
            if (database != null && database.isBlank()) {
                throw new IllegalArgumentException("database must not be blank (use null to take it from the rows)");
            }
            loadHeaders = new TableLoadHeaders(loadFormat, defaultLoadProperties, tableLoadProperties);
            return new LoadEngineConfig(this);
        }

        private static void positive(String name, long value) {
            if (value <= 0) {
                throw new IllegalArgumentException(name + " must be > 0, was " + value);
            }
        }
    }
}
