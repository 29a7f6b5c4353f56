package io.lockstep.emulator.mysql;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * MySQL packet framing over one connection: each packet is a 3-byte little-endian payload length, a 1-byte
 * sequence id and the payload; a payload of 16 MiB - 1 or more is split into several packets, the last one shorter
 * (https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_basic_packets.html). The sequence id restarts at 0
 * with every command; each packet, read or written, takes the next one. Owned by the connection's thread.
 */
final class PacketChannel {
    private static final int MAX_PAYLOAD = 0xFFFFFF;

    private final InputStream in;
    private final OutputStream out;
    private int sequence;

    PacketChannel(InputStream in, OutputStream out) {
        this.in = new BufferedInputStream(in);
        this.out = new BufferedOutputStream(out);
    }

    /** Starts a new command: the next packet read has sequence id 0. */
    void resetSequence() {
        sequence = 0;
    }

    /**
     * Reads one logical packet (joining split ones).
     *
     * @return the payload, or null when the client closed the connection between packets
     * @throws IOException on a read error or a connection closed inside a packet
     */
    byte[] read() throws IOException {
        byte[] joined = null;
        while (true) {
            int b0 = in.read();
            if (b0 < 0) {
                if (joined == null) {
                    return null;
                }
                throw new EOFException("connection closed inside a split packet");
            }
            int length = b0 | (readByte() << 8) | (readByte() << 16);
            sequence = (readByte() + 1) & 0xFF;
            byte[] part = in.readNBytes(length);
            if (part.length < length) {
                throw new EOFException("connection closed inside a packet of " + length + " bytes");
            }
            joined = joined == null ? part : concat(joined, part);
            if (length < MAX_PAYLOAD) {
                return joined;
            }
        }
    }

    private int readByte() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("connection closed inside a packet header");
        }
        return b;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = new byte[a.length + b.length];
        System.arraycopy(a, 0, c, 0, a.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    /** Buffers one packet (split if needed) with the next sequence id; {@link #flush} sends. */
    void write(byte[] payload) throws IOException {
        int offset = 0;
        while (true) {
            int length = Math.min(MAX_PAYLOAD, payload.length - offset);
            out.write(length & 0xFF);
            out.write((length >>> 8) & 0xFF);
            out.write((length >>> 16) & 0xFF);
            out.write(sequence);
            sequence = (sequence + 1) & 0xFF;
            out.write(payload, offset, length);
            offset += length;
            if (length < MAX_PAYLOAD) {
                return;
            }
        }
    }

    void flush() throws IOException {
        out.flush();
    }
}
