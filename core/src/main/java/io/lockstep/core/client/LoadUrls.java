package io.lockstep.core.client;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The FE HTTP addresses of the {@code load-url} option: {@code host:port;host:port}, each optionally prefixed with
 * {@code http://} or {@code https://}. Several addresses give per-request failover: a request goes to the next address
 * when one refuses connections (docs/protocol.md#redirects-failover-and-probes).
 *
 * <p>Rules (each violation is an {@link IllegalArgumentException} naming the option and the offending entry):
 * entries are separated by {@code ;} only (a comma is rejected, since it is the usual mistake);
 * {@code http} entries need an explicit port (the FE HTTP port, typically 8030), {@code https} defaults to 443;
 * no path, query or user info (credentials belong in {@code username}/{@code password}).
 */
public final class LoadUrls {
    /** The option name used in error messages when none is given. */
    public static final String DEFAULT_OPTION_NAME = "load-url";

    private final List<URI> bases;

    private LoadUrls(List<URI> bases) {
        this.bases = List.copyOf(bases);
    }

    /** Parses {@code value} as the {@value #DEFAULT_OPTION_NAME} option. */
    public static LoadUrls parse(String value) {
        return parse(value, DEFAULT_OPTION_NAME);
    }

    /**
     * Parses a {@code ;}-separated list of FE addresses.
     *
     * @param value      e.g. {@code fe1:8030;https://fe2:8443}
     * @param optionName the option the value came from, named in errors
     * @throws IllegalArgumentException if the value is blank, contains a comma or an entry is malformed
     */
    public static LoadUrls parse(String value, String optionName) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(optionName + " is empty: expected host:port[;host:port...]"
                    + " (e.g. fe1:8030;fe2:8030)");
        }
        if (value.indexOf(',') >= 0) {
            throw new IllegalArgumentException(optionName + " '" + value + "' contains ',': separate several FE"
                    + " addresses with ';' (e.g. fe1:8030;fe2:8030)");
        }
        List<URI> result = new ArrayList<>();
        for (String raw : value.split(";")) {
            String entry = raw.trim();
            if (!entry.isEmpty()) {
                result.add(parseEntry(entry, optionName));
            }
        }
        if (result.isEmpty()) {
            throw new IllegalArgumentException(optionName + " '" + value + "' holds no address: expected"
                    + " host:port[;host:port...]");
        }
        return new LoadUrls(result);
    }

    private static URI parseEntry(String entry, String optionName) {
        String lower = entry.toLowerCase(Locale.ROOT);
        int schemeEnd = lower.indexOf("://");
        if (schemeEnd >= 0 && !lower.startsWith("http://") && !lower.startsWith("https://")) {
            throw new IllegalArgumentException(optionName + " entry '" + entry + "' has scheme '"
                    + entry.substring(0, schemeEnd) + "': expected http:// or https:// (or none, meaning http)");
        }
        String withScheme = lower.startsWith("http://") || lower.startsWith("https://") ? entry : "http://" + entry;
        URI uri;
        try {
            uri = new URI(withScheme);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(optionName + " entry '" + entry + "' is not a valid address: "
                    + e.getMessage(), e);
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        if (uri.getHost() == null) {
            throw new IllegalArgumentException(optionName + " entry '" + entry + "' has no host: expected host:port");
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException(optionName + " entry '" + entry.replace(uri.getRawUserInfo(), "***")
                    + "' carries user info: pass credentials as username/password instead");
        }
        if ((uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/"))
                || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException(optionName + " entry '" + entry + "' must be host:port only,"
                    + " without a path or query");
        }
        int port = uri.getPort();
        if (port < 0) {
            if (scheme.equals("https")) {
                port = 443;
            } else {
                throw new IllegalArgumentException(optionName + " entry '" + entry + "' has no port: expected"
                        + " host:port with the FE HTTP port (e.g. " + uri.getHost() + ":8030)");
            }
        }
        if (port == 0 || port > 65535) {
            throw new IllegalArgumentException(optionName + " entry '" + entry + "' has port " + port
                    + ": expected 1 to 65535");
        }
        try {
            return new URI(scheme, null, uri.getHost(), port, null, null, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(optionName + " entry '" + entry + "' is not a valid address", e);
        }
    }

    /** The addresses in configured order, each {@code scheme://host:port} without a path. */
    public List<URI> bases() {
        return bases;
    }

    /** How many addresses there are (at least 1). */
    public int size() {
        return bases.size();
    }

    /** The addresses joined by {@code ;}, each with its scheme. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (URI base : bases) {
            if (sb.length() > 0) {
                sb.append(';');
            }
            sb.append(base);
        }
        return sb.toString();
    }
}
