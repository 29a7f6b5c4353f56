package io.lockstep.emulator.mysql;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Builds the payload of one MySQL packet: little-endian fixed-length integers, length-encoded integers and
 * strings, NUL-terminated strings (MySQL client/server protocol, "Basic Data Types":
 * https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_basic_data_types.html). Strings are UTF-8.
 * Not thread-safe; one writer per packet.
 */
final class PacketWriter {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(64);

    PacketWriter int1(int value) {
        out.write(value & 0xFF);
        return this;
    }

    PacketWriter int2(int value) {
        return int1(value).int1(value >>> 8);
    }

    PacketWriter int3(int value) {
        return int2(value).int1(value >>> 16);
    }

    PacketWriter int4(long value) {
        return int2((int) value).int2((int) (value >>> 16));
    }

    PacketWriter int8(long value) {
        return int4(value).int4(value >>> 32);
    }

    /** A length-encoded integer (1, 3, 4 or 9 bytes). */
    PacketWriter lenenc(long value) {
        if (value < 0xFB && value >= 0) {
            return int1((int) value);
        }
        if (value >= 0 && value < (1 << 16)) {
            return int1(0xFC).int2((int) value);
        }
        if (value >= 0 && value < (1 << 24)) {
            return int1(0xFD).int3((int) value);
        }
        return int1(0xFE).int4(value).int4(value >>> 32);
    }

    /** A length-encoded string. */
    PacketWriter lenencString(String value) {
        return lenencBytes(value.getBytes(StandardCharsets.UTF_8));
    }

    PacketWriter lenencBytes(byte[] value) {
        lenenc(value.length);
        out.writeBytes(value);
        return this;
    }

    /** A string followed by NUL. */
    PacketWriter nulString(String value) {
        out.writeBytes(value.getBytes(StandardCharsets.UTF_8));
        return int1(0);
    }

    /** Bytes as they are (fixed-length strings, the rest of a packet). */
    PacketWriter bytes(byte[] value) {
        out.writeBytes(value);
        return this;
    }

    PacketWriter zeros(int count) {
        for (int i = 0; i < count; i++) {
            out.write(0);
        }
        return this;
    }

    byte[] payload() {
        return out.toByteArray();
    }
}
