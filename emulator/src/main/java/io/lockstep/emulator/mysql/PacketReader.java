package io.lockstep.emulator.mysql;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the payload of one MySQL packet (the counterpart of {@link PacketWriter}). Reading past the end throws
 * {@link MysqlProtocolException} naming what was being read. Not thread-safe.
 */
final class PacketReader {
    private final byte[] payload;
    private int position;

    PacketReader(byte[] payload) {
        this.payload = payload;
    }

    boolean hasMore() {
        return position < payload.length;
    }

    int int1(String what) {
        need(1, what);
        return payload[position++] & 0xFF;
    }

    /** Skips the command byte of a command-phase packet. */
    PacketReader skipCommand() {
        int1("command");
        return this;
    }

    int int2(String what) {
        need(2, what);
        int value = (payload[position] & 0xFF) | (payload[position + 1] & 0xFF) << 8;
        position += 2;
        return value;
    }

    long int4(String what) {
        need(4, what);
        long value = 0;
        for (int i = 0; i < 4; i++) {
            value |= (long) (payload[position++] & 0xFF) << (8 * i);
        }
        return value;
    }

    long int8(String what) {
        need(8, what);
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value |= (long) (payload[position++] & 0xFF) << (8 * i);
        }
        return value;
    }

    void skip(int count, String what) {
        need(count, what);
        position += count;
    }

    /** A length-encoded integer. */
    long lenenc(String what) {
        int first = int1(what);
        if (first < 0xFB) {
            return first;
        }
        int size = switch (first) {
            case 0xFC -> 2;
            case 0xFD -> 3;
            case 0xFE -> 8;
            default -> throw new MysqlProtocolException("invalid length-encoded integer 0x"
                    + Integer.toHexString(first) + " in " + what);
        };
        need(size, what);
        long value = 0;
        for (int i = 0; i < size; i++) {
            value |= (long) (payload[position++] & 0xFF) << (8 * i);
        }
        return value;
    }

    byte[] bytes(int count, String what) {
        need(count, what);
        byte[] value = Arrays.copyOfRange(payload, position, position + count);
        position += count;
        return value;
    }

    /** Bytes up to (not including) the next NUL, which is consumed; up to the end when there is none. */
    String nulString(String what) {
        int end = position;
        while (end < payload.length && payload[end] != 0) {
            end++;
        }
        String value = new String(payload, position, end - position, StandardCharsets.UTF_8);
        position = Math.min(end + 1, payload.length);
        return value;
    }

    /** The rest of the payload. */
    byte[] rest() {
        byte[] value = Arrays.copyOfRange(payload, position, payload.length);
        position = payload.length;
        return value;
    }

    private void need(int count, String what) {
        if (position + count > payload.length) {
            throw new MysqlProtocolException("packet too short reading " + what + " (" + payload.length
                    + " bytes)");
        }
    }
}
