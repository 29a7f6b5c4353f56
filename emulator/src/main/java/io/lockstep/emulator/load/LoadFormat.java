package io.lockstep.emulator.load;

import java.util.Map;

/**
 * How a load body is to be read, parsed once from the request headers of a load (reference §2.2, §5).
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

    /** {@code max_filter_ratio} in [0, 1]; default 0. Checked by the transaction layer at prepare/commit. */
    double maxFilterRatio();

    /** {@code format} as sent, lower-cased ({@code csv} when absent). */
    String formatName();
}
