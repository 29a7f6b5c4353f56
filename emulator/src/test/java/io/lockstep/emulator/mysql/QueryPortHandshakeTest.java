package io.lockstep.emulator.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.StarRocksEmulator;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The connection phase byte by byte, as a client that first answers for {@code caching_sha2_password} (MySQL
 * Connector/J 9's default) sees it: HandshakeV10, the AuthSwitchRequest to {@code mysql_native_password}, OK; then
 * COM_PING, COM_INIT_DB, COM_QUERY and an unknown command.
 */
class QueryPortHandshakeTest {
    private static StarRocksEmulator sr;

    @BeforeAll
    static void start() throws Exception {
        sr = StarRocksEmulator.builder().user("loader", "pw-1").ddl("CREATE DATABASE shop").build().start();
    }

    @AfterAll
    static void stop() {
        sr.close();
    }

    /** The handshake fields a client reads. */
    record Handshake(int protocol, String version, long capabilities, byte[] scramble, String plugin) {
    }

    static Handshake readHandshake(PacketChannel channel) throws Exception {
        PacketReader r = new PacketReader(channel.read());
        int protocol = r.int1("protocol");
        String version = r.nulString("version");
        r.int4("connection id");
        byte[] part1 = r.bytes(8, "scramble 1");
        r.int1("filler");
        long low = r.int1("cap") | (r.int1("cap") << 8);
        r.int1("charset");
        r.skip(2, "status");
        long high = r.int1("cap") | (r.int1("cap") << 8);
        int scrambleLength = r.int1("scramble length");
        r.skip(10, "reserved");
        byte[] part2 = r.bytes(scrambleLength - 8 - 1, "scramble 2");
        r.int1("scramble NUL");
        String plugin = r.nulString("plugin");
        byte[] scramble = Arrays.copyOf(part1, 8 + part2.length);
        System.arraycopy(part2, 0, scramble, 8, part2.length);
        return new Handshake(protocol, version, low | (high << 16), scramble, plugin);
    }

    static byte[] response(String user, byte[] token, String database, String plugin) {
        int caps = MysqlConnection.CLIENT_PROTOCOL_41 | MysqlConnection.CLIENT_SECURE_CONNECTION
                | MysqlConnection.CLIENT_PLUGIN_AUTH | MysqlConnection.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA
                | (database == null ? 0 : MysqlConnection.CLIENT_CONNECT_WITH_DB);
        PacketWriter w = new PacketWriter().int4(caps).int4(1 << 24).int1(45).zeros(23).nulString(user)
                .lenencBytes(token);
        if (database != null) {
            w.nulString(database);
        }
        return w.nulString(plugin).payload();
    }

    @Test
    void aClientAnsweringForCachingSha2IsSwitchedToNativePassword() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", sr.queryPort())) {
            PacketChannel channel = new PacketChannel(socket.getInputStream(), socket.getOutputStream());
            Handshake hello = readHandshake(channel);
            assertThat(hello.protocol()).isEqualTo(10);
            assertThat(hello.version()).isEqualTo("8.0.33");
            assertThat(hello.plugin()).isEqualTo("mysql_native_password");
            assertThat(hello.scramble()).hasSize(20).doesNotContain((byte) 0);
            assertThat(hello.capabilities() & MysqlConnection.CLIENT_SSL).as("no TLS offered").isZero();

            channel.write(response("loader", new byte[32], "shop", "caching_sha2_password"));
            channel.flush();
            PacketReader authSwitch = new PacketReader(channel.read());
            assertThat(authSwitch.int1("header")).isEqualTo(0xFE);
            assertThat(authSwitch.nulString("plugin")).isEqualTo("mysql_native_password");
            byte[] scramble = authSwitch.bytes(20, "scramble");
            assertThat(scramble).isEqualTo(hello.scramble());

            channel.write(NativePassword.token("pw-1", scramble));
            channel.flush();
            assertThat(channel.read()[0]).as("OK packet").isEqualTo((byte) 0);

            channel.resetSequence();
            channel.write(new byte[] {0x0E});
            channel.flush();
            assertThat(channel.read()[0]).as("COM_PING answers OK").isEqualTo((byte) 0);

            channel.resetSequence();
            channel.write(new PacketWriter().int1(0x03).bytes("SELECT DATABASE()".getBytes(StandardCharsets.UTF_8))
                    .payload());
            channel.flush();
            assertThat(new PacketReader(channel.read()).lenenc("column count")).isEqualTo(1);
            channel.read(); // column definition
            assertThat(channel.read()[0] & 0xFF).as("EOF after the columns").isEqualTo(0xFE);
            PacketReader row = new PacketReader(channel.read());
            assertThat(new String(row.bytes((int) row.lenenc("value length"), "value"), StandardCharsets.UTF_8))
                    .as("the handshake's database is the session's").isEqualTo("shop");
            assertThat(channel.read()[0] & 0xFF).as("closing EOF").isEqualTo(0xFE);

            channel.resetSequence();
            channel.write(new PacketWriter().int1(0x02).bytes("nodb".getBytes(StandardCharsets.UTF_8)).payload());
            channel.flush();
            PacketReader err = new PacketReader(channel.read());
            assertThat(err.int1("header")).isEqualTo(0xFF);
            assertThat(err.int1("code low") | (err.int1("code high") << 8)).as("StarRocks' ERR_BAD_DB_ERROR").isEqualTo(5501);
            assertThat(new String(err.rest(), StandardCharsets.UTF_8)).isEqualTo("#3F000Unknown database 'nodb'");

            channel.resetSequence();
            channel.write(new byte[] {0x1C, 1, 0, 0, 0, 1, 0, 0, 0}); // COM_STMT_FETCH: no cursors here
            channel.flush();
            PacketReader unknown = new PacketReader(channel.read());
            assertThat(unknown.int1("header")).isEqualTo(0xFF);
            assertThat(unknown.int1("code low") | (unknown.int1("code high") << 8)).isEqualTo(1047);

            channel.resetSequence();
            channel.write(new byte[] {0x01});
            channel.flush();
            assertThat(channel.read()).as("COM_QUIT closes the connection").isNull();
        }
    }

    @Test
    void aWrongTokenAfterTheSwitchIsDenied() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", sr.queryPort())) {
            PacketChannel channel = new PacketChannel(socket.getInputStream(), socket.getOutputStream());
            Handshake hello = readHandshake(channel);
            channel.write(response("loader", NativePassword.token("wrong", hello.scramble()), null,
                    "mysql_native_password"));
            channel.flush();
            PacketReader err = new PacketReader(channel.read());
            assertThat(err.int1("header")).isEqualTo(0xFF);
            assertThat(err.int1("code low") | (err.int1("code high") << 8)).isEqualTo(1045);
            assertThat(new String(err.rest(), StandardCharsets.UTF_8))
                    .isEqualTo("#28000Access denied for user 'loader' (using password: YES)");
        }
    }

    @Test
    void splitPacketsAreJoined() throws Exception {
        byte[] big = new byte[0xFFFFFF + 10];
        Arrays.fill(big, (byte) 'a');
        java.io.ByteArrayOutputStream wire = new java.io.ByteArrayOutputStream();
        PacketChannel writer = new PacketChannel(java.io.InputStream.nullInputStream(), wire);
        writer.write(big);
        writer.flush();
        byte[] bytes = wire.toByteArray();
        assertThat(bytes).hasSize(big.length + 8);
        assertThat(bytes[3]).as("first sequence id").isEqualTo((byte) 0);
        assertThat(bytes[4 + 0xFFFFFF + 3]).as("second sequence id").isEqualTo((byte) 1);
        PacketChannel reader = new PacketChannel(new java.io.ByteArrayInputStream(bytes), java.io.OutputStream
                .nullOutputStream());
        assertThat(Arrays.equals(reader.read(), big)).as("the joined payload").isTrue();
    }
}
