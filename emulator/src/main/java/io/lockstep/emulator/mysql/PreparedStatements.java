package io.lockstep.emulator.mysql;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The server-side prepared statements of one connection (MySQL's binary protocol, which StarRocks' FE serves in
 * {@code fe/fe-core/src/main/java/com/starrocks/qe/ConnectProcessor.java}: COM_STMT_PREPARE, COM_STMT_EXECUTE,
 * COM_STMT_CLOSE, COM_STMT_RESET, COM_STMT_SEND_LONG_DATA;
 * https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_command_phase_ps.html).
 *
 * <p>A statement is kept as its text and its number of {@code ?} placeholders. An execute decodes the parameters
 * (NULL bitmap, types when the client sends them, else the types of the previous execute, binary values; long data
 * sent before replaces a parameter's value) and gives back the statement with every placeholder replaced by a SQL
 * literal of the value, which then runs as a text statement does. Statement ids count from 1 per connection. Owned by
 * the connection's thread.
 */
final class PreparedStatements {
    /** MySQL type codes of parameters (MYSQL_TYPE_*). */
    private static final int T_DECIMAL = 0;
    private static final int T_TINY = 1;
    private static final int T_SHORT = 2;
    private static final int T_LONG = 3;
    private static final int T_FLOAT = 4;
    private static final int T_DOUBLE = 5;
    private static final int T_NULL = 6;
    private static final int T_TIMESTAMP = 7;
    private static final int T_LONGLONG = 8;
    private static final int T_INT24 = 9;
    private static final int T_DATE = 10;
    private static final int T_TIME = 11;
    private static final int T_DATETIME = 12;
    private static final int T_YEAR = 13;
    private static final int T_BIT = 16;
    private static final int T_BOOL = 244;
    private static final int T_NEWDECIMAL = 246;
    private static final int UNSIGNED = 0x80;

    /** One prepared statement. */
    static final class Statement {
        final int id;
        final String sql;
        final int parameterCount;
        /** Type and flag per parameter, from the last execute that sent them. */
        int[] types;
        /** Long data per parameter index, since the last execute or reset. */
        final Map<Integer, ByteArrayOutputStream> longData = new HashMap<>();

        Statement(int id, String sql, int parameterCount) {
            this.id = id;
            this.sql = sql;
            this.parameterCount = parameterCount;
        }
    }

    private final Map<Integer, Statement> statements = new HashMap<>();
    private int nextId = 1;

    /**
     * Registers a statement.
     *
     * @throws SqlError 1064 when the text cannot be tokenised
     */
    Statement prepare(String sql) {
        Statement statement = new Statement(nextId++, sql, SqlLexer.placeholders(sql));
        statements.put(statement.id, statement);
        return statement;
    }

    /** Forgets a statement (COM_STMT_CLOSE; an unknown id is ignored, as MySQL does). */
    void close(int id) {
        statements.remove(id);
    }

    /** Forgets every statement (COM_RESET_CONNECTION). */
    void clear() {
        statements.clear();
    }

    /**
     * Adds long data to a parameter (COM_STMT_SEND_LONG_DATA); an unknown statement or parameter is ignored, since
     * this command has no reply to carry an error.
     */
    void longData(byte[] packet) {
        PacketReader r = new PacketReader(packet);
        r.int1("command");
        Statement statement = statements.get((int) r.int4("statement id"));
        int parameter = r.int2("parameter id");
        if (statement != null && parameter < statement.parameterCount) {
            statement.longData.computeIfAbsent(parameter, p -> new ByteArrayOutputStream()).writeBytes(r.rest());
        }
    }

    /**
     * Clears a statement's long data (COM_STMT_RESET).
     *
     * @throws SqlError 1243 for an unknown statement id
     */
    void reset(byte[] packet) {
        PacketReader r = new PacketReader(packet);
        r.int1("command");
        require((int) r.int4("statement id")).longData.clear();
    }

    /** The statement of an id. */
    Statement require(int id) {
        Statement statement = statements.get(id);
        if (statement == null) {
            throw new SqlError(1243, "HY000", "Unknown prepared statement handler (" + id + ") given to "
                    + "mysqld_stmt_execute");
        }
        return statement;
    }

    /**
     * Decodes a COM_STMT_EXECUTE packet and returns the statement's text with the parameters as SQL literals.
     *
     * @throws SqlError for an unknown statement, or parameters that were never typed
     */
    String bind(byte[] packet) {
        PacketReader r = new PacketReader(packet);
        r.int1("command");
        Statement statement = require((int) r.int4("statement id"));
        r.int1("cursor flags");
        r.int4("iteration count");
        int count = statement.parameterCount;
        String[] literals = new String[count];
        if (count > 0) {
            byte[] nulls = r.bytes((count + 7) / 8, "NULL bitmap");
            if (r.int1("new parameters bound flag") == 1) {
                statement.types = new int[count];
                for (int i = 0; i < count; i++) {
                    statement.types[i] = r.int2("parameter type");
                }
            }
            for (int i = 0; i < count; i++) {
                ByteArrayOutputStream longData = statement.longData.get(i);
                if (longData != null) {
                    literals[i] = SqlLexer.quote(longData.toString(StandardCharsets.UTF_8));
                } else if ((nulls[i / 8] & (1 << (i % 8))) != 0) {
                    literals[i] = "NULL"; // no type needed: clients send none while every value is NULL
                } else if (statement.types == null) {
                    throw new SqlError(SqlError.UNKNOWN_ERROR, "HY000", "parameter " + (i + 1) + " of prepared "
                            + "statement " + statement.id + " has a value but its type was never sent");
                } else {
                    literals[i] = literal(r, statement.types[i]);
                }
            }
            statement.longData.clear();
        }
        return substitute(statement.sql, literals);
    }

    private static String substitute(String sql, String[] literals) {
        StringBuilder out = new StringBuilder(sql.length() + 16 * literals.length);
        int next = 0;
        for (SqlLexer.Token token : SqlLexer.tokens(sql)) {
            out.append(token.kind() == SqlLexer.Kind.PARAM ? literals[next++] : token.text());
        }
        return out.toString();
    }

    /** One binary parameter value as a SQL literal. */
    private static String literal(PacketReader r, int typeAndFlag) {
        int type = typeAndFlag & 0xFF;
        boolean unsigned = (typeAndFlag >>> 8 & UNSIGNED) != 0;
        return switch (type) {
            case T_NULL -> "NULL";
            case T_TINY, T_BOOL -> {
                int v = r.int1("TINY parameter");
                yield Integer.toString(unsigned ? v : (byte) v);
            }
            case T_SHORT, T_YEAR -> {
                int v = r.int2("SHORT parameter");
                yield Integer.toString(unsigned ? v : (short) v);
            }
            case T_LONG, T_INT24 -> {
                long v = r.int4("LONG parameter");
                yield Long.toString(unsigned ? v : (int) v);
            }
            case T_LONGLONG -> {
                long v = r.int8("LONGLONG parameter");
                yield unsigned && v < 0 ? new BigInteger(Long.toUnsignedString(v)).toString() : Long.toString(v);
            }
            case T_FLOAT -> Float.toString(Float.intBitsToFloat((int) r.int4("FLOAT parameter")));
            case T_DOUBLE -> Double.toString(Double.longBitsToDouble(r.int8("DOUBLE parameter")));
            case T_DATE, T_DATETIME, T_TIMESTAMP -> SqlLexer.quote(dateTime(r, type == T_DATE));
            case T_TIME -> SqlLexer.quote(time(r));
            case T_DECIMAL, T_NEWDECIMAL -> {
                String text = new String(r.bytes((int) r.lenenc("DECIMAL length"), "DECIMAL parameter"),
                        StandardCharsets.US_ASCII);
                yield text.matches("-?\\d+(\\.\\d*)?([eE][+-]?\\d+)?") ? text : SqlLexer.quote(text);
            }
            case T_BIT -> new BigInteger(1, r.bytes((int) r.lenenc("BIT length"), "BIT parameter")).toString();
            default -> SqlLexer.quote(new String(r.bytes((int) r.lenenc("parameter length"), "parameter value"),
                    StandardCharsets.UTF_8));
        };
    }

    private static String dateTime(PacketReader r, boolean dateOnly) {
        int length = r.int1("DATETIME length");
        int year = 0;
        int month = 0;
        int day = 0;
        int hour = 0;
        int minute = 0;
        int second = 0;
        long micros = 0;
        if (length >= 4) {
            year = r.int2("year");
            month = r.int1("month");
            day = r.int1("day");
        }
        if (length >= 7) {
            hour = r.int1("hour");
            minute = r.int1("minute");
            second = r.int1("second");
        }
        if (length >= 11) {
            micros = r.int4("microseconds");
        }
        String date = String.format("%04d-%02d-%02d", year, month, day);
        if (dateOnly && length <= 4) {
            return date;
        }
        String time = String.format(" %02d:%02d:%02d", hour, minute, second);
        return micros == 0 ? date + time : date + time + String.format(".%06d", micros);
    }

    private static String time(PacketReader r) {
        int length = r.int1("TIME length");
        if (length == 0) {
            return "00:00:00";
        }
        boolean negative = r.int1("TIME sign") == 1;
        long days = r.int4("TIME days");
        int hour = r.int1("hour");
        int minute = r.int1("minute");
        int second = r.int1("second");
        long micros = length >= 12 ? r.int4("microseconds") : 0;
        String text = String.format("%s%02d:%02d:%02d", negative ? "-" : "", days * 24 + hour, minute, second);
        return micros == 0 ? text : text + String.format(".%06d", micros);
    }

    /** The column definitions sent for each parameter in the prepare reply: untyped (VAR_STRING) placeholders. */
    static List<byte[]> parameterDefinitions(int count) {
        List<byte[]> packets = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            packets.add(new PacketWriter().lenencString("def").lenencString("").lenencString("").lenencString("")
                    .lenencString("?").lenencString("").lenenc(0x0C).int2(ResultColumnType.CHARSET_BINARY).int4(0)
                    .int1(ResultColumnType.TYPE_VAR_STRING).int2(0).int1(0).int2(0).payload());
        }
        return packets;
    }
}
