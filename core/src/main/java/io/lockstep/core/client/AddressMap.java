package io.lockstep.core.client;

import java.net.URI;
import java.net.URISyntaxException;
import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Maps the addresses FEs redirect loads to (the BE addresses the cluster advertises) to addresses this client can
 * reach: in Docker or Kubernetes a BE often advertises an internal name or IP that is unreachable from the Flink
 * cluster (StarRocks/starrocks-connector-for-apache-flink#438). Parsed from
 * {@code advertised:port=reachable:port[,...]}; hosts compare case-insensitively, the scheme and path of a redirect
 * are kept. Immutable and thread-safe; serializable, as part of a sink's configuration shipped to its subtasks.
 */
public final class AddressMap implements Serializable {
    private static final long serialVersionUID = 1L;

    private static final AddressMap EMPTY = new AddressMap(Map.of());

    /** "host:port" (host lower case) to "host:port". */
    private final Map<String, String> targets;

    private AddressMap(Map<String, String> targets) {
        this.targets = targets;
    }

    /** No mapping. */
    public static AddressMap empty() {
        return EMPTY;
    }

    /**
     * @param text {@code advertised:port=reachable:port}, several separated by {@code ,}; blank means none
     * @param optionName the option's name, for messages
     * @throws IllegalArgumentException naming the option and the bad entry
     */
    public static AddressMap parse(String text, String optionName) {
        if (text == null || text.isBlank()) {
            return EMPTY;
        }
        Map<String, String> targets = new LinkedHashMap<>();
        for (String entry : text.split(",")) {
            String trimmed = entry.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            String[] sides = trimmed.split("=", -1);
            if (sides.length != 2) {
                throw new IllegalArgumentException(optionName + ": entry '" + trimmed + "' is not "
                        + "advertised:port=reachable:port");
            }
            String from = hostPort(sides[0].trim(), optionName, trimmed);
            String to = hostPort(sides[1].trim(), optionName, trimmed);
            if (targets.put(from.toLowerCase(Locale.ROOT), to) != null) {
                throw new IllegalArgumentException(optionName + ": address " + from + " is mapped twice");
            }
        }
        return new AddressMap(Collections.unmodifiableMap(targets));
    }

    private static String hostPort(String side, String optionName, String entry) {
        int colon = side.lastIndexOf(':');
        if (colon <= 0 || colon == side.length() - 1 || side.contains("/")) {
            throw new IllegalArgumentException(optionName + ": '" + side + "' in entry '" + entry
                    + "' is not host:port");
        }
        try {
            int port = Integer.parseInt(side.substring(colon + 1));
            if (port < 1 || port > 65_535) {
                throw new NumberFormatException();
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(optionName + ": '" + side + "' in entry '" + entry
                    + "' has no valid port (1-65535)");
        }
        return side;
    }

    /** True when no address is mapped. */
    public boolean isEmpty() {
        return targets.isEmpty();
    }

    /** {@code uri} with its host and port replaced when they are mapped; {@code uri} itself otherwise. */
    URI apply(URI uri) {
        if (targets.isEmpty() || uri.getHost() == null) {
            return uri;
        }
        String to = targets.get((uri.getHost() + ":" + uri.getPort()).toLowerCase(Locale.ROOT));
        if (to == null) {
            return uri;
        }
        int colon = to.lastIndexOf(':');
        try {
            return new URI(uri.getScheme(), uri.getRawUserInfo(), to.substring(0, colon),
                    Integer.parseInt(to.substring(colon + 1)), uri.getPath(), uri.getQuery(), uri.getFragment());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("mapped address " + to + " does not form a URL with " + uri, e);
        }
    }

    @Override
    public String toString() {
        return targets.toString();
    }
}
