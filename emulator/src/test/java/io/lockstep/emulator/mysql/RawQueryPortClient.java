package io.lockstep.emulator.mysql;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A minimal MySQL client for byte-level tests of the query port: logs in with {@code mysql_native_password}, sends
 * commands and reads reply packets one by one, so that a test sees exactly which packets (and sequence ids) the
 * server sends.
 */
final class RawQueryPortClient implements AutoCloseable {
    /** An ERR packet's fields. */
    record Err(int code, String sqlState, String message) {
    }

    private final Socket socket;
    private final PacketChannel channel;

    RawQueryPortClient(int port, String user, String password, String database) throws Exception {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(5_000);
        channel = new PacketChannel(socket.getInputStream(), socket.getOutputStream());
        QueryPortHandshakeTest.Handshake hello = QueryPortHandshakeTest.readHandshake(channel);
        channel.write(QueryPortHandshakeTest.response(user, NativePassword.token(password, hello.scramble()),
                database, "mysql_native_password"));
        channel.flush();
        byte[] reply = channel.read();
        if ((reply[0] & 0xFF) != 0) {
            throw new IllegalStateException("login failed: " + err(reply));
        }
    }

    /** Sends one command packet (sequence id 0). */
    void send(byte[] payload) throws IOException {
        channel.resetSequence();
        channel.write(payload);
        channel.flush();
    }

    /** Sends COM_QUERY. */
    void query(String sql) throws IOException {
        byte[] text = sql.getBytes(StandardCharsets.UTF_8);
        byte[] payload = new byte[text.length + 1];
        payload[0] = 0x03;
        System.arraycopy(text, 0, payload, 1, text.length);
        send(payload);
    }

    /** The next packet from the server. */
    byte[] read() throws IOException {
        return channel.read();
    }

    /** Runs a statement that must fail and returns its ERR packet. */
    Err error(String sql) throws IOException {
        query(sql);
        byte[] reply = read();
        if ((reply[0] & 0xFF) != 0xFF) {
            throw new IllegalStateException("expected an error for " + sql + ", got packet 0x"
                    + Integer.toHexString(reply[0] & 0xFF) + "; drain: " + drain(reply));
        }
        return err(reply);
    }

    private String drain(byte[] first) throws IOException {
        // a result set: read until the second EOF so the connection stays usable
        int eofs = 0;
        while ((first[0] & 0xFF) != 0 && eofs < 2) {
            byte[] packet = read();
            if ((packet[0] & 0xFF) == 0xFE && packet.length < 9) {
                eofs++;
            }
        }
        return "result set";
    }

    static Err err(byte[] packet) {
        PacketReader r = new PacketReader(packet);
        r.int1("header");
        int code = r.int2("code");
        String rest = new String(r.rest(), StandardCharsets.UTF_8);
        return new Err(code, rest.substring(1, 6), rest.substring(6));
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
