package com.starrocks.data.load.stream.properties;

import io.lockstep.flink.options.SinkOptionDefinitions;
import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Stream load headers for one target table, overriding the sink-wide {@code sink.properties.*}
 * for loads into that table (for example {@code ignore_json_size} for a table with large rows).
 * Added to the sink with {@code StarRocksSinkOptions.addTableProperties}.
 *
 * <p>Documented connector API (the complete example of StarRocks' multi-table transaction guide,
 * https://docs.starrocks.io/docs/loading/Flink_multi_table_transaction/):
 * {@code builder().database(..).table(..).addProperty(k, v).build()}.
 *
 * <p>Immutable once built; header names are stored lower-case (HTTP header names are
 * case-insensitive) in the order they were added.
 */
public class StreamLoadTableProperties implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String database;
    private final String table;
    private final LinkedHashMap<String, String> properties;

    private StreamLoadTableProperties(Builder builder) {
        this.database = builder.database;
        this.table = builder.table;
        this.properties = new LinkedHashMap<>(builder.properties);
    }

    /** @return a new builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the target database */
    public String getDatabase() {
        return database;
    }

    /** @return the target table */
    public String getTable() {
        return table;
    }

    /** @return {@code database + "." + table}, the key the sink routes rows of this table by */
    public String getUniqueKey() {
        return database + "." + table;
    }

    /** @return the stream load headers of this table: lower-case names, insertion order, read-only */
    public Map<String, String> getProperties() {
        return Collections.unmodifiableMap(properties);
    }

    /**
     * @param name header name, any case
     * @return the header's value, or {@code null} if this table does not set it
     */
    public String getProperty(String name) {
        return properties.get(name.toLowerCase(Locale.ROOT));
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof StreamLoadTableProperties)) {
            return false;
        }
        StreamLoadTableProperties that = (StreamLoadTableProperties) o;
        return database.equals(that.database) && table.equals(that.table) && properties.equals(that.properties);
    }

    @Override
    public int hashCode() {
        return Objects.hash(database, table, properties);
    }

    @Override
    public String toString() {
        return "StreamLoadTableProperties{" + getUniqueKey() + ", " + properties + "}";
    }

    /** Builder; not thread safe. */
    public static class Builder {
        private String database;
        private String table;
        private final LinkedHashMap<String, String> properties = new LinkedHashMap<>();

        /**
         * @param database target database (required, not blank, not {@code *})
         * @return this builder
         */
        public Builder database(String database) {
            this.database = database;
            return this;
        }

        /**
         * @param table target table (required, not blank, not {@code *})
         * @return this builder
         */
        public Builder table(String table) {
            this.table = table;
            return this;
        }

        /**
         * Adds one stream load header for this table; a later value for the same name (any case)
         * replaces the earlier one.
         *
         * @param name header name, e.g. {@code strip_outer_array}
         * @param value header value, e.g. {@code true}
         * @return this builder
         * @throws IllegalArgumentException if the name is blank or reserved by the sink
         *     ({@code label}, {@code db}, {@code table}, ...), or the value is null
         */
        public Builder addProperty(String name, String value) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("Invalid stream load property name '" + name
                        + "' for table " + describeTable() + ": expected a header name");
            }
            String header = name.trim().toLowerCase(Locale.ROOT);
            if (SinkOptionDefinitions.RESERVED_STREAM_LOAD_HEADERS.contains(header)) {
                throw new IllegalArgumentException("Invalid stream load property '" + name + "' for table "
                        + describeTable() + ": the header is set by the sink itself (labels, routing, "
                        + "authentication); remove it");
            }
            if (value == null) {
                throw new IllegalArgumentException("Invalid stream load property '" + name + "' for table "
                        + describeTable() + ": the value is null");
            }
            properties.put(header, value);
            return this;
        }

        /**
         * @return the table properties
         * @throws IllegalArgumentException if the database or the table is missing, blank or
         *     {@code *}
         */
        public StreamLoadTableProperties build() {
            checkName("database", database);
            checkName("table", table);
            return new StreamLoadTableProperties(this);
        }

        private static void checkName(String what, String name) {
            if (name == null || name.isBlank() || name.equals(SinkOptionDefinitions.WILDCARD)) {
                throw new IllegalArgumentException("Invalid StreamLoadTableProperties: " + what + " is '"
                        + name + "'; expected the name of one " + what + " (set it with ." + what + "(...))");
            }
        }

        private String describeTable() {
            return "'" + database + "." + table + "'";
        }
    }
}
