package io.lockstep.emulator.load;

import java.util.Map;

/**
 * How a load body is to be read, parsed once from the request headers of a load (docs/protocol.md#load-headers,
 * #data-formats-and-filtered-rows).
 *
 * <p>Implemented by the data plane; the transaction layer only builds it with {@link #fromHeaders} and hands
 * it to a {@link LoadBodyParser}. Header names are looked up case-insensitively.
 */
public interface LoadFormat {

    /**
     * Parses the data headers ({@code format}, {@code columns}, {@code where}, {@code column_separator},
     * {@code row_delimiter}, {@code jsonpaths}, {@code json_root}, {@code strip_outer_array}, {@code strict_mode},
     * {@code timezone}, {@code partial_update}, {@code max_filter_ratio}, ...).
     *
     * @param headers request headers, keys lower-cased
     * @return the parsed format
     * @throws LoadFormatException with the server's status and message for an invalid header value
     */
    static LoadFormat fromHeaders(Map<String, String> headers) throws LoadFormatException {
        return LoadFormats.fromHeaders(headers);
    }

    /**
     * {@code max_filter_ratio}; default 0. Read as the BE reads it (C {@code strtod}: the leading number, 0 when there
     * is none, no range check; BE {@code stream_load.cpp} and {@code transaction_stream_load.cpp}). The load fails with
     * "too many filtered rows" when filtered / (total - unselected) exceeds it; the transaction layer checks this at
     * prepare/commit (docs/protocol.md#data-formats-and-filtered-rows).
     */
    double maxFilterRatio();

    /** {@code format} as sent, lower-cased ({@code csv} when absent). */
    String formatName();

    /**
     * Whether a later load of the same transaction (multi-table: of the same table) carries the same request as this
     * one. The BE compares format, columns, where, column_separator, row_delimiter, partitions and
     * temporary_partitions, negative, strict_mode, timezone, load_mem_limit, jsonpaths, json_root, strip_outer_array,
     * partial_update, merge_condition, partial_update_mode, transmission_compression_type, load_dop and the payload
     * compression; {@code max_filter_ratio} is not compared (the plan of the first load is kept). A difference fails
     * the load with INTERNAL_ERROR "load request not equal last." and aborts the transaction
     * (docs/protocol.md#load-headers; BE {@code transaction_stream_load.cpp} {@code _exec_plan_fragment}).
     *
     * @param other the format of the later load
     * @return true when the later load may proceed
     */
    boolean sameLoadRequest(LoadFormat other);
}
