package io.lockstep.flink.config;

import io.lockstep.core.format.CompressedLoadFormat;
import io.lockstep.core.format.LoadFormat;
import io.lockstep.core.format.LoadFormats;
import io.lockstep.core.server.Target;
import io.lockstep.flink.options.StreamLoadFormat;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The effective stream load headers of loads into one table, from a {@link SinkConfig}'s settings. Stateless.
 */
final class EffectiveLoadHeaders {

    private EffectiveLoadHeaders() {
    }

    /**
     * The headers in increasing precedence: {@code timeout} (the effective {@code sink.properties.timeout}),
     * {@code format}, the load format's own headers ({@code io.lockstep.core.format.JsonLoadFormat}:
     * {@code strip_outer_array: true}; CSV: {@code format: csv}) and those only the target reads (CSV on Doris:
     * {@code line_delimiter} for {@code row_delimiter}; {@link Target#formatHeaders}: on StarRocks
     * {@code ignore_json_size: true}, the StarRocks connector's default,
     * docs/protocol.md#what-the-official-starrocks-connector-does), {@code strict_mode: true} (Lockstep's default,
     * where StarRocks' and Doris' is false: a value that does not convert to its column's type fails the load as a
     * data error instead of being stored as NULL; {@code sink.properties.strict_mode=false} restores the servers'
     * default), then every {@code sink.properties.*}, then the table's own {@link TableLoadProperties}; last, with a
     * compressed body, the compression as the target reads it ({@link CompressedLoadFormat}: StarRocks
     * {@code compression} or compressed-CSV {@code format}, Doris {@code compress_type}).
     *
     * @param timeoutSeconds the effective load timeout, s
     * @param format the {@code sink.properties.format} value
     * @param target the server the sink loads into
     * @param properties every {@code sink.properties.*}, names lower-cased
     * @param table the table's own properties, if any
     * @return header name (lower case) to value, read-only
     */
    static Map<String, String> of(int timeoutSeconds, StreamLoadFormat format, Target target,
            Map<String, String> properties, Optional<TableLoadProperties> table) {
        Map<String, String> headers = new TreeMap<>();
        headers.put("timeout", String.valueOf(timeoutSeconds));
        headers.put("format", format.headerValue());
        LoadFormat loadFormat = loadFormatOrNull(format, properties);
        if (loadFormat != null) {
            headers.putAll(loadFormat.headers());
            headers.putAll(target.formatHeaders(loadFormat)); // e.g. Doris' line_delimiter for row_delimiter
        }
        headers.put("strict_mode", "true"); // never NULL a bad value silently (docs/options.md)
        headers.putAll(properties);
        table.ifPresent(p -> headers.putAll(p.headers()));
        if (loadFormat instanceof CompressedLoadFormat compressed) {
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
    private static LoadFormat loadFormatOrNull(StreamLoadFormat format, Map<String, String> properties) {
        try {
            return LoadFormats.forName(format.headerValue(), "sink.properties.format", properties);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
