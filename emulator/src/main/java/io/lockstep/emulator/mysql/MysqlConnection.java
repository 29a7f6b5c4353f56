package io.lockstep.emulator.mysql;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection of the query port: the connection phase (HandshakeV10 offering
 * {@code mysql_native_password}, the client's HandshakeResponse41, an AuthSwitchRequest when the client answered
 * for another method, e.g. {@code caching_sha2_password} by MySQL Connector/J 9), then the command phase: COM_QUERY,
 * COM_INIT_DB, COM_PING, COM_QUIT, COM_FIELD_LIST (answered empty), COM_RESET_CONNECTION; other commands get
 * {@code 1047 Unknown command}. Protocol:
 * https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase.html and
 * https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_command_phase.html.
 *
 * <p>Capabilities offered: LONG_PASSWORD, FOUND_ROWS, LONG_FLAG, CONNECT_WITH_DB, PROTOCOL_41, TRANSACTIONS,
 * SECURE_CONNECTION, MULTI_RESULTS, PLUGIN_AUTH, CONNECT_ATTRS, PLUGIN_AUTH_LENENC_CLIENT_DATA; not SSL (clients
 * that require TLS are refused by their own check), not DEPRECATE_EOF (result sets end with classic EOF packets),
 * not MULTI_STATEMENTS. Runs on its own thread, which owns every field; the password is never logged.
 */
final class MysqlConnection implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(MysqlConnection.class);

    static final int CLIENT_LONG_PASSWORD = 0x1;
    static final int CLIENT_FOUND_ROWS = 0x2;
    static final int CLIENT_LONG_FLAG = 0x4;
    static final int CLIENT_CONNECT_WITH_DB = 0x8;
    static final int CLIENT_PROTOCOL_41 = 0x200;
    static final int CLIENT_SSL = 0x800;
    static final int CLIENT_TRANSACTIONS = 0x2000;
    static final int CLIENT_SECURE_CONNECTION = 0x8000;
    static final int CLIENT_MULTI_RESULTS = 0x20000;
    static final int CLIENT_PLUGIN_AUTH = 0x80000;
    static final int CLIENT_CONNECT_ATTRS = 0x100000;
    static final int CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA = 0x200000;
    static final int SERVER_CAPABILITIES = CLIENT_LONG_PASSWORD | CLIENT_FOUND_ROWS | CLIENT_LONG_FLAG
            | CLIENT_CONNECT_WITH_DB | CLIENT_PROTOCOL_41 | CLIENT_TRANSACTIONS | CLIENT_SECURE_CONNECTION
            | CLIENT_MULTI_RESULTS | CLIENT_PLUGIN_AUTH | CLIENT_CONNECT_ATTRS | CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA;
    /** SERVER_STATUS_AUTOCOMMIT: every statement is its own transaction. */
    static final int STATUS_AUTOCOMMIT = 0x2;

    private static final int COM_QUIT = 0x01;
    private static final int COM_INIT_DB = 0x02;
    private static final int COM_QUERY = 0x03;
    private static final int COM_FIELD_LIST = 0x04;
    private static final int COM_PING = 0x0E;
    private static final int COM_RESET_CONNECTION = 0x1F;

    private final Socket socket;
    private final int connectionId;
    private final String serverVersion;
    private final Map<String, String> users;
    private final SqlSession session;
    private final Runnable onLogin;
    private final Runnable onClose;

    /**
     * @param socket        the accepted connection (closed when this ends)
     * @param connectionId  the id shown to the client ({@code CONNECTION_ID()})
     * @param serverVersion the MySQL version announced in the handshake
     * @param users         user name → password, the same accounts as the HTTP ports
     * @param session       runs the statements of this connection
     * @param onLogin       told when the client has authenticated
     * @param onClose       told when the connection ends
     */
    MysqlConnection(Socket socket, int connectionId, String serverVersion, Map<String, String> users,
                    SqlSession session, Runnable onLogin, Runnable onClose) {
        this.socket = socket;
        this.connectionId = connectionId;
        this.serverVersion = serverVersion;
        this.users = users;
        this.session = session;
        this.onLogin = onLogin;
        this.onClose = onClose;
    }

    @Override
    public void run() {
        try (Socket s = socket) {
            s.setTcpNoDelay(true);
            PacketChannel channel = new PacketChannel(s.getInputStream(), s.getOutputStream());
            if (authenticate(channel)) {
                commands(channel);
            }
        } catch (IOException | MysqlProtocolException e) {
            LOG.debug("query port connection {} ended: {}", connectionId, e.getMessage());
        } finally {
            onClose.run();
        }
    }

    private boolean authenticate(PacketChannel channel) throws IOException {
        byte[] scramble = NativePassword.newScramble();
        channel.write(handshake(scramble));
        channel.flush();
        byte[] response = channel.read();
        if (response == null) {
            return false;
        }
        PacketReader r = new PacketReader(response);
        long capabilities = r.int4("client capabilities");
        if ((capabilities & CLIENT_PROTOCOL_41) == 0) {
            error(channel, new SqlError(SqlError.NOT_SUPPORTED, "42000",
                    "the client does not speak protocol 4.1 (CLIENT_PROTOCOL_41)"));
            return false;
        }
        r.int4("max packet size");
        r.int1("character set");
        r.skip(23, "filler");
        String user = r.nulString("user name");
        byte[] token;
        if ((capabilities & CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA) != 0) {
            token = r.bytes((int) r.lenenc("auth response length"), "auth response");
        } else if ((capabilities & CLIENT_SECURE_CONNECTION) != 0) {
            token = r.bytes(r.int1("auth response length"), "auth response");
        } else {
            token = r.nulString("auth response").getBytes(StandardCharsets.UTF_8);
        }
        String database = (capabilities & CLIENT_CONNECT_WITH_DB) != 0 && r.hasMore() ? r.nulString("database") : "";
        String plugin = (capabilities & CLIENT_PLUGIN_AUTH) != 0 && r.hasMore()
                ? r.nulString("auth plugin name") : NativePassword.PLUGIN;
        if (!plugin.isEmpty() && !NativePassword.PLUGIN.equals(plugin)) {
            LOG.debug("query port connection {}: the client answered for {}; switching it to {}", connectionId, plugin,
                    NativePassword.PLUGIN);
            channel.write(new PacketWriter().int1(0xFE).nulString(NativePassword.PLUGIN).bytes(scramble).int1(0)
                    .payload());
            channel.flush();
            token = channel.read();
            if (token == null) {
                return false;
            }
        }
        String password = users.get(user);
        if (password == null || !NativePassword.matches(password, scramble, token)) {
            LOG.info("query port connection {}: access denied for user '{}'", connectionId, user);
            error(channel, new SqlError(SqlError.ACCESS_DENIED, "28000", "Access denied for user '" + user
                    + "' (using password: " + (token.length > 0 ? "YES" : "NO") + ")"));
            return false;
        }
        session.user(user);
        if (!database.isEmpty()) {
            try {
                session.useDatabase(database);
            } catch (SqlError e) {
                error(channel, e);
                return false;
            }
        }
        ok(channel, 0);
        onLogin.run();
        return true;
    }

    private byte[] handshake(byte[] scramble) {
        return new PacketWriter()
                .int1(10)
                .nulString(serverVersion)
                .int4(connectionId)
                .bytes(java.util.Arrays.copyOf(scramble, 8))
                .int1(0)
                .int2(SERVER_CAPABILITIES & 0xFFFF)
                .int1(ResultColumnType.CHARSET_UTF8MB4)
                .int2(STATUS_AUTOCOMMIT)
                .int2(SERVER_CAPABILITIES >>> 16)
                .int1(NativePassword.SCRAMBLE_LENGTH + 1)
                .zeros(10)
                .bytes(java.util.Arrays.copyOfRange(scramble, 8, NativePassword.SCRAMBLE_LENGTH))
                .int1(0)
                .nulString(NativePassword.PLUGIN)
                .payload();
    }

    private void commands(PacketChannel channel) throws IOException {
        while (true) {
            channel.resetSequence();
            byte[] packet = channel.read();
            if (packet == null || packet.length == 0) {
                return;
            }
            int command = packet[0] & 0xFF;
            String argument = new String(packet, 1, packet.length - 1, StandardCharsets.UTF_8);
            try {
                switch (command) {
                    case COM_QUIT:
                        return;
                    case COM_PING, COM_RESET_CONNECTION:
                        ok(channel, 0);
                        break;
                    case COM_INIT_DB:
                        session.useDatabase(argument);
                        ok(channel, 0);
                        break;
                    case COM_FIELD_LIST:
                        channel.write(TextResultSet.eof(STATUS_AUTOCOMMIT));
                        channel.flush();
                        break;
                    case COM_QUERY:
                        answer(channel, session.execute(argument));
                        break;
                    default:
                        throw new SqlError(SqlError.UNKNOWN_COMMAND, "08S01", "Unknown command");
                }
            } catch (SqlError e) {
                error(channel, e);
            } catch (MysqlProtocolException e) {
                throw e;
            } catch (RuntimeException e) {
                // an emulator bug must not end the connection silently: the client gets it as an error
                LOG.warn("query port connection {}: command 0x{} failed", connectionId, Integer.toHexString(command),
                        e);
                error(channel, new SqlError(SqlError.UNKNOWN_ERROR, "HY000", "the emulator failed: " + e));
            }
        }
    }

    private void answer(PacketChannel channel, SqlResult result) throws IOException {
        if (result instanceof SqlResult.Ok ok) {
            ok(channel, ok.affectedRows());
        } else if (result instanceof SqlResult.Rows rows) {
            for (byte[] packet : TextResultSet.encode(rows, STATUS_AUTOCOMMIT)) {
                channel.write(packet);
            }
            channel.flush();
        }
    }

    private static void ok(PacketChannel channel, long affectedRows) throws IOException {
        channel.write(new PacketWriter().int1(0).lenenc(affectedRows).lenenc(0).int2(STATUS_AUTOCOMMIT).int2(0)
                .payload());
        channel.flush();
    }

    private static void error(PacketChannel channel, SqlError e) throws IOException {
        String message = e.getMessage() == null ? "unknown error" : e.getMessage();
        channel.write(new PacketWriter().int1(0xFF).int2(e.code()).int1('#')
                .bytes(e.sqlState().getBytes(StandardCharsets.US_ASCII)).bytes(message.getBytes(StandardCharsets.UTF_8))
                .payload());
        channel.flush();
    }
}
