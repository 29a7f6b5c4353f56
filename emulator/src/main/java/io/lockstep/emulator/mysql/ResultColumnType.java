package io.lockstep.emulator.mysql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The MySQL column definition of one result column: protocol type, display length, decimals, flags and charset, as
 * StarRocks' FE writes them for a StarRocks type (fe-core {@code com/starrocks/mysql/MysqlColumnType} and
 * {@code catalog/Type#getMysqlResultType}: BOOLEAN and TINYINT → TINY, SMALLINT → SHORT, INT → LONG, BIGINT →
 * LONGLONG, LARGEINT → VAR_STRING, DECIMAL → NEWDECIMAL with the scale as decimals, FLOAT → FLOAT, DOUBLE → DOUBLE,
 * DATE → DATE, DATETIME → DATETIME, CHAR/VARCHAR/STRING/JSON → VAR_STRING in utf8mb4;
 * https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_query_response_text_resultset_column_definition.html).
 *
 * @param mysqlType protocol type code (1 TINY, 2 SHORT, 3 LONG, 4 FLOAT, 5 DOUBLE, 8 LONGLONG, 10 DATE, 12 DATETIME,
 *                  246 NEWDECIMAL, 253 VAR_STRING)
 * @param length    column length in bytes as the protocol reports it
 * @param decimals  digits after the point (31 for floating point, as MySQL reports "not fixed")
 */
record ResultColumnType(int mysqlType, long length, int decimals) {
    static final int TYPE_TINY = 1;
    static final int TYPE_SHORT = 2;
    static final int TYPE_LONG = 3;
    static final int TYPE_FLOAT = 4;
    static final int TYPE_DOUBLE = 5;
    static final int TYPE_LONGLONG = 8;
    static final int TYPE_DATE = 10;
    static final int TYPE_DATETIME = 12;
    static final int TYPE_NEWDECIMAL = 246;
    static final int TYPE_VAR_STRING = 253;
    /** utf8mb4_general_ci. */
    static final int CHARSET_UTF8MB4 = 45;
    /** binary, the charset of numeric and temporal columns. */
    static final int CHARSET_BINARY = 63;
    private static final int FLAG_BINARY = 128;
    private static final int FLAG_NUM = 32768;
    private static final ResultColumnType VARCHAR = new ResultColumnType(TYPE_VAR_STRING, 65533L * 4, 0);
    private static final Pattern DECIMAL = Pattern.compile("decimal(?:v2|32|64|128)?\\s*\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)");

    /**
     * The column definition of a StarRocks type name ({@code bigint(20)}, {@code decimal64(10, 2)}, {@code varchar},
     * ...); unknown names are VARCHAR.
     */
    static ResultColumnType of(String starRocksType) {
        String type = starRocksType.strip().toLowerCase(Locale.ROOT);
        String base = type.replaceAll("[(\\s].*", "");
        return switch (base) {
            case "boolean" -> new ResultColumnType(TYPE_TINY, 1, 0);
            case "tinyint" -> new ResultColumnType(TYPE_TINY, 4, 0);
            case "smallint" -> new ResultColumnType(TYPE_SHORT, 6, 0);
            case "int", "integer" -> new ResultColumnType(TYPE_LONG, 11, 0);
            case "bigint" -> new ResultColumnType(TYPE_LONGLONG, 20, 0);
            case "float" -> new ResultColumnType(TYPE_FLOAT, 12, 31);
            case "double" -> new ResultColumnType(TYPE_DOUBLE, 22, 31);
            case "date" -> new ResultColumnType(TYPE_DATE, 10, 0);
            case "datetime" -> new ResultColumnType(TYPE_DATETIME, 26, 6);
            case "decimal", "decimalv2", "decimal32", "decimal64", "decimal128" -> decimal(type);
            default -> VARCHAR;
        };
    }

    /** The column definition inferred from a value (null: VARCHAR), for results built without declared types. */
    static ResultColumnType ofValue(Object value) {
        if (value instanceof Boolean || value instanceof Byte) {
            return of("tinyint");
        }
        if (value instanceof Short) {
            return of("smallint");
        }
        if (value instanceof Integer) {
            return of("int");
        }
        if (value instanceof Long) {
            return of("bigint");
        }
        if (value instanceof BigDecimal d) {
            return new ResultColumnType(TYPE_NEWDECIMAL, 40, Math.max(0, Math.min(d.scale(), 30)));
        }
        if (value instanceof BigInteger) {
            return new ResultColumnType(TYPE_NEWDECIMAL, 40, 0);
        }
        if (value instanceof Float) {
            return of("float");
        }
        if (value instanceof Double) {
            return of("double");
        }
        if (value instanceof LocalDate) {
            return of("date");
        }
        if (value instanceof LocalDateTime) {
            return of("datetime");
        }
        return VARCHAR;
    }

    private static ResultColumnType decimal(String type) {
        Matcher m = DECIMAL.matcher(type);
        if (!m.find()) {
            return new ResultColumnType(TYPE_NEWDECIMAL, 29, 9);
        }
        int precision = Integer.parseInt(m.group(1));
        int scale = Integer.parseInt(m.group(2));
        return new ResultColumnType(TYPE_NEWDECIMAL, precision + 2, scale);
    }

    boolean text() {
        return mysqlType == TYPE_VAR_STRING;
    }

    /** The charset number the definition names: utf8mb4 for text, binary otherwise. */
    int charset() {
        return text() ? CHARSET_UTF8MB4 : CHARSET_BINARY;
    }

    /** BINARY for every non-text column, NUM for the numeric ones. */
    int flags() {
        boolean temporal = mysqlType == TYPE_DATE || mysqlType == TYPE_DATETIME;
        return (text() ? 0 : FLAG_BINARY) | (text() || temporal ? 0 : FLAG_NUM);
    }
}
