package io.lockstep.flink.config;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Stream load headers of one target table, overriding the sink-wide {@code sink.properties.*} for loads into it; the
 * internal form of the facade's {@code StreamLoadTableProperties}. Immutable.
 *
 * @param database the table's database
 * @param table    the table
 * @param headers  header name (lower case) to value, in the order given; read-only
 */
public record TableLoadProperties(String database, String table, Map<String, String> headers)
        implements Serializable {

    /** Copies {@code headers}, keeping their order. */
    public TableLoadProperties {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /** @return {@code database + "." + table}, the key rows of this table are routed by */
    public String uniqueKey() {
        return database + "." + table;
    }
}
