package io.lockstep.flink.options;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parser of the {@code load-url} option: the HTTP addresses of the FE nodes that take stream
 * loads, written {@code host:port;host:port}. An address may carry an {@code http://} or
 * {@code https://} prefix (default {@code http}); the host is a name, an IPv4 address or an IPv6
 * address in brackets; the port is required and within [1, 65535]; no path is allowed.
 *
 * <p>The separator is {@code ;} as in the StarRocks connector (its option reference,
 * {@code StarRocksSinkOptions.LOAD_URL}); a comma is reported with a dedicated error because
 * {@code jdbc-url} uses commas and the two are easily mixed up.
 */
public final class LoadUrls {

    private static final Pattern ADDRESS = Pattern.compile(
            "(?:(?<scheme>[A-Za-z]+)://)?(?<host>\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9_][A-Za-z0-9_.-]*):(?<port>[0-9]{1,5})");

    private LoadUrls() {
    }

    /**
     * Splits and checks a {@code load-url} value.
     *
     * @param text the option value, e.g. {@code 127.0.0.1:8030;fe2:8030}
     * @return the base URLs in order, each normalized to {@code scheme://host:port}
     *     (scheme lower-case, {@code http} when absent); never empty
     * @throws IllegalArgumentException whose message names the bad address and the expected form
     */
    public static List<String> parse(String text) {
        if (text.isBlank()) {
            throw new IllegalArgumentException("expected at least one address 'host:port'");
        }
        if (text.indexOf(',') >= 0) {
            throw new IllegalArgumentException(
                    "addresses are separated by ';', not ','; expected 'host:port;host:port'");
        }
        String[] parts = text.split(";", -1);
        List<String> urls = new ArrayList<>(parts.length);
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].trim();
            if (part.isEmpty()) {
                if (i == parts.length - 1 && i > 0) {
                    continue; // tolerate one trailing ';'
                }
                throw new IllegalArgumentException("address " + (i + 1)
                        + " is empty; expected 'host:port;host:port'");
            }
            urls.add(parseAddress(part));
        }
        return Collections.unmodifiableList(urls);
    }

    private static String parseAddress(String address) {
        Matcher matcher = ADDRESS.matcher(address);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("address '" + address
                    + "' is not 'host:port' (optionally prefixed by 'http://' or 'https://', no path)");
        }
        String scheme = matcher.group("scheme");
        scheme = scheme == null ? "http" : scheme.toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("address '" + address
                    + "' has scheme '" + scheme + "'; expected 'http://', 'https://' or none");
        }
        int port = Integer.parseInt(matcher.group("port"));
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("address '" + address
                    + "' has port " + port + "; expected a port in [1, 65535]");
        }
        return scheme + "://" + matcher.group("host") + ":" + port;
    }
}
