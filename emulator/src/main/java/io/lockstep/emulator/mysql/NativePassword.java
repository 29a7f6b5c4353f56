package io.lockstep.emulator.mysql;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * The {@code mysql_native_password} authentication method: the server sends a 20-byte scramble, the client answers
 * {@code SHA1(password) XOR SHA1(scramble + SHA1(SHA1(password)))}, or nothing for an empty password
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase_authentication_methods_native_password_authentication.html).
 * Thread-safe (stateless).
 */
final class NativePassword {
    /** The plugin name clients name in the handshake and the auth switch. */
    static final String PLUGIN = "mysql_native_password";
    static final int SCRAMBLE_LENGTH = 20;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String SCRAMBLE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private NativePassword() {
    }

    /** A new scramble of printable ASCII (never NUL, which the handshake uses as a terminator). */
    static byte[] newScramble() {
        byte[] scramble = new byte[SCRAMBLE_LENGTH];
        for (int i = 0; i < scramble.length; i++) {
            scramble[i] = (byte) SCRAMBLE_CHARS.charAt(RANDOM.nextInt(SCRAMBLE_CHARS.length()));
        }
        return scramble;
    }

    /** The token a client with {@code password} sends for {@code scramble} (empty for an empty password). */
    static byte[] token(String password, byte[] scramble) {
        if (password.isEmpty()) {
            return new byte[0];
        }
        byte[] stage1 = sha1(password.getBytes(StandardCharsets.UTF_8));
        byte[] stage2 = sha1(stage1);
        byte[] salted = sha1(scramble, stage2);
        byte[] token = new byte[stage1.length];
        for (int i = 0; i < token.length; i++) {
            token[i] = (byte) (stage1[i] ^ salted[i]);
        }
        return token;
    }

    /** Whether {@code response} is the token of {@code password} for {@code scramble}, in constant time. */
    static boolean matches(String password, byte[] scramble, byte[] response) {
        return MessageDigest.isEqual(token(password, scramble), response);
    }

    private static byte[] sha1(byte[]... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-1");
            for (byte[] part : parts) {
                digest.update(part);
            }
            return digest.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is not available in this JVM", e);
        }
    }
}
