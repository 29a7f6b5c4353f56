package io.lockstep.emulator.http;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * HTTP Basic authentication against the configured users (user → password; {@code root} with an empty
 * password is StarRocks' default). Immutable, thread-safe. Never logs or returns the password.
 */
public final class BasicAuth {
    /** Outcome of one check. */
    public record Result(boolean ok, String user, String error) {
    }

    private final Map<String, String> users;

    /** @param users user name → password */
    public BasicAuth(Map<String, String> users) {
        this.users = Map.copyOf(users);
    }

    /**
     * Checks an {@code Authorization} header value.
     *
     * @return ok with the user, or the FE's error text: "Need auth information." when absent or not Basic,
     *         "Access denied for user '<user>'" when the user is unknown or the password wrong (StarRocks adds
     *         the client host and "(using password: YES)"; the short form is ours)
     */
    public Result check(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return new Result(false, null, "Need auth information.");
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return new Result(false, null, "Need auth information.");
        }
        int colon = decoded.indexOf(':');
        String user = colon < 0 ? decoded : decoded.substring(0, colon);
        String password = colon < 0 ? "" : decoded.substring(colon + 1);
        String expected = users.get(user);
        if (expected == null || !expected.equals(password)) {
            return new Result(false, user, "Access denied for user '" + user + "'");
        }
        return new Result(true, user, null);
    }
}
