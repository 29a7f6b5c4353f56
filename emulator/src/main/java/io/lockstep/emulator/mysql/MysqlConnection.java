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
 * COM_INIT_DB, COM_PING, COM_QUIT, COM_FIELD_LIST (answered empty), COM_RESET_CONNECTION, COM_SET_OPTION, and the
 * prepared-statement commands ({@link PreparedStatements}, {@link BinaryResultSet}): COM_STMT_PREPARE,
 * COM_STMT_EXECUTE, COM_STMT_RESET, and COM_STMT_CLOSE and COM_STMT_SEND_LONG_DATA, which get no reply at all, as
 * from MySQL and StarRocks' FE ({@code fe/fe-core/src/main/java/com/starrocks/qe/ConnectProcessor.java}); a reply
 * to them would be read by the client as the reply to its next command. Other commands get
 * {@code 1047 Unknown command}. Errors are renumbered for the dialect by {@link SqlErrors#onWire}. Protocol:
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
    private static final int COM_STMT_PREPARE = 0x16;
    private static final int COM_STMT_EXECUTE = 0x17;
    private static final int COM_STMT_SEND_LONG_DATA = 0x18;
    private static final int COM_STMT_CLOSE = 0x19;
    private static final int COM_STMT_RESET = 0x1A;
    private static final int COM_SET_OPTION = 0x1B;
    private static final int COM_RESET_CONNECTION = 0x1F;
    /** COM_SET_OPTION's MYSQL_OPTION_MULTI_STATEMENTS_OFF. */
    private static final int MULTI_STATEMENTS_OFF = 1;

    private final Socket socket;
    private final int connectionId;
    private final QueryDialect dialect;
    private final Map<String, String> users;
    private final SqlSession session;
    private final Runnable onLogin;
    private final Runnable onClose;
    private final PreparedStatements prepared = new PreparedStatements();

    /**
     * @param socket        the accepted connection (closed when this ends)
     * @param connectionId  the id shown to the client ({@code CONNECTION_ID()})
     * @param dialect       the server the port stands for (the handshake's version, the error numbering)
     * @param users         user name → password, the same accounts as the HTTP ports
     * @param session       runs the statements of this connection
     * @param onLogin       told when the client has authenticated
     * @param onClose       told when the connection ends
     */
    MysqlConnection(Socket socket, int connectionId, QueryDialect dialect, Map<String, String> users,
                    SqlSession session, Runnable onLogin, Runnable onClose) {
        this.socket = socket;
        this.connectionId = connectionId;
        this.dialect = dialect;
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
                .nulString(dialect.mysqlVersion())
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
            // COM_STMT_CLOSE and COM_STMT_SEND_LONG_DATA are never answered, not even with an error
            boolean replies = command != COM_STMT_CLOSE && command != COM_STMT_SEND_LONG_DATA;
            try {
                if (!command(channel, command, packet)) {
                    return;
                }
            } catch (SqlError e) {
                if (replies) {
                    error(channel, e);
                } else {
                    LOG.debug("query port connection {}: command 0x{} failed (no reply): {}", connectionId,
                            Integer.toHexString(command), e.getMessage());
                }
            } catch (MysqlProtocolException e) {
                throw e;
            } catch (RuntimeException e) {
                // an emulator bug must not end the connection silently: the client gets it as an error
                LOG.warn("query port connection {}: command 0x{} failed", connectionId, Integer.toHexString(command),
                        e);
                if (replies) {
                    error(channel, new SqlError(SqlError.UNKNOWN_ERROR, "HY000", "the emulator failed: "
                            + e.getClass().getSimpleName()));
                }
            }
        }
    }

    /** Runs one command and sends its reply, if it has one; false for COM_QUIT. */
    private boolean command(PacketChannel channel, int command, byte[] packet) throws IOException {
        String argument = new String(packet, 1, packet.length - 1, StandardCharsets.UTF_8);
        switch (command) {
            case COM_QUIT:
                return false;
            case COM_PING:
                ok(channel, 0);
                break;
            case COM_RESET_CONNECTION:
                prepared.clear();
                session.reset();
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
                answer(channel, session.execute(argument), false);
                break;
            case COM_STMT_PREPARE:
                prepareReply(channel, prepared.prepare(argument));
                break;
            case COM_STMT_EXECUTE:
                answer(channel, session.execute(prepared.bind(packet)), true);
                break;
            case COM_STMT_SEND_LONG_DATA:
                prepared.longData(packet);
                break;
            case COM_STMT_CLOSE:
                prepared.close((int) new PacketReader(packet).skipCommand().int4("statement id"));
                break;
            case COM_STMT_RESET:
                prepared.reset(packet);
                ok(channel, 0);
                break;
            case COM_SET_OPTION:
                if (new PacketReader(packet).skipCommand().int2("option") != MULTI_STATEMENTS_OFF) {
                    throw new SqlError(SqlError.NOT_SUPPORTED, "42000", "the query port does not run several "
                            + "statements in one COM_QUERY (MULTI_STATEMENTS)");
                }
                channel.write(TextResultSet.eof(STATUS_AUTOCOMMIT));
                channel.flush();
                break;
            default:
                throw new SqlError(SqlError.UNKNOWN_COMMAND, "08S01", "Unknown command");
        }
        return true;
    }

    /**
     * COM_STMT_PREPARE_OK: statement id, no result columns announced (the execute reply carries them), the number of
     * parameters, then one definition per parameter and an EOF.
     */
    private static void prepareReply(PacketChannel channel, PreparedStatements.Statement statement)
            throws IOException {
        channel.write(new PacketWriter().int1(0).int4(statement.id).int2(0).int2(statement.parameterCount).int1(0)
                .int2(0).payload());
        if (statement.parameterCount > 0) {
            for (byte[] definition : PreparedStatements.parameterDefinitions(statement.parameterCount)) {
                channel.write(definition);
            }
            channel.write(TextResultSet.eof(STATUS_AUTOCOMMIT));
        }
        channel.flush();
    }

    private void answer(PacketChannel channel, SqlResult result, boolean binary) throws IOException {
        if (result instanceof SqlResult.Ok ok) {
            ok(channel, ok.affectedRows());
        } else if (result instanceof SqlResult.Rows rows) {
            for (byte[] packet : binary ? BinaryResultSet.encode(rows, STATUS_AUTOCOMMIT)
                    : TextResultSet.encode(rows, STATUS_AUTOCOMMIT)) {
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

    private void error(PacketChannel channel, SqlError error) throws IOException {
        SqlError e = SqlErrors.onWire(error, dialect);
        String message = e.getMessage() == null ? "unknown error" : e.getMessage();
        channel.write(new PacketWriter().int1(0xFF).int2(e.code()).int1('#')
                .bytes(e.sqlState().getBytes(StandardCharsets.US_ASCII)).bytes(message.getBytes(StandardCharsets.UTF_8))
                .payload());
        channel.flush();
    }
}
