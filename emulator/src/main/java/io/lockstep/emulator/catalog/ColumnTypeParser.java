package io.lockstep.emulator.catalog;

/**
 * Reads one column type of the DDL subset: BOOLEAN (BOOL), TINYINT, SMALLINT, INT (INTEGER), BIGINT, LARGEINT,
 * FLOAT, DOUBLE, DECIMAL[(p[,s])] / DECIMALV2 / DECIMAL32 / DECIMAL64 / DECIMAL128, CHAR[(n)], VARCHAR[(n)],
 * STRING, DATE, DATETIME, JSON.
 *
 * <p>Limits and defaults from the StarRocks docs "CREATE TABLE" and "DECIMAL": DECIMAL defaults to (10, 0),
 * precision 1..38 (DECIMAL32 up to 9, DECIMAL64 up to 18, DECIMALV2 up to 27 with scale up to 9), scale 0..p;
 * CHAR length 1..255 (default 1); VARCHAR length 1..1048576 bytes (default 1); STRING holds up to 65533 bytes.
 */
final class ColumnTypeParser {
    /** Maximum bytes of a STRING value (StarRocks docs "STRING"). */
    static final int STRING_MAX_BYTES = 65533;
    private static final int VARCHAR_MAX_BYTES = 1048576;
    private static final int CHAR_MAX_BYTES = 255;

    private ColumnTypeParser() {
    }

    static ColumnType parse(DdlCursor p, String column) throws DdlException {
        DdlToken typeToken = p.peek();
        String word = p.identifier("type of column '" + column + "'");
        String upper = word.toUpperCase();
        switch (upper) {
            case "BOOLEAN", "BOOL":
                return ColumnType.of(ColumnType.Kind.BOOLEAN);
            case "TINYINT":
                return integer(p, ColumnType.Kind.TINYINT);
            case "SMALLINT":
                return integer(p, ColumnType.Kind.SMALLINT);
            case "INT", "INTEGER":
                return integer(p, ColumnType.Kind.INT);
            case "BIGINT":
                return integer(p, ColumnType.Kind.BIGINT);
            case "LARGEINT":
                return integer(p, ColumnType.Kind.LARGEINT);
            case "FLOAT":
                return ColumnType.of(ColumnType.Kind.FLOAT);
            case "DOUBLE":
                return ColumnType.of(ColumnType.Kind.DOUBLE);
            case "DECIMAL", "DECIMALV2", "DECIMAL32", "DECIMAL64", "DECIMAL128", "NUMERIC":
                return decimal(p, column, upper);
            case "CHAR":
                return new ColumnType(ColumnType.Kind.CHAR, length(p, column, "CHAR", CHAR_MAX_BYTES), -1, -1);
            case "VARCHAR":
                return new ColumnType(ColumnType.Kind.VARCHAR, length(p, column, "VARCHAR", VARCHAR_MAX_BYTES),
                        -1, -1);
            case "STRING":
                return new ColumnType(ColumnType.Kind.STRING, STRING_MAX_BYTES, -1, -1);
            case "DATE":
                return ColumnType.of(ColumnType.Kind.DATE);
            case "DATETIME":
                return ColumnType.of(ColumnType.Kind.DATETIME);
            case "JSON":
                return ColumnType.of(ColumnType.Kind.JSON);
            default:
                throw p.errorAt(typeToken, "unknown or unsupported column type '" + word + "' for column '" + column
                        + "'; supported: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, LARGEINT, FLOAT, DOUBLE,"
                        + " DECIMAL(p,s), CHAR(n), VARCHAR(n), STRING, DATE, DATETIME, JSON");
        }
    }

    /** Integer types accept (and ignore) a display width, e.g. INT(11), as StarRocks does. */
    private static ColumnType integer(DdlCursor p, ColumnType.Kind kind) throws DdlException {
        if (p.acceptSymbol("(")) {
            p.positiveInt("display width");
            p.expectSymbol(")");
        }
        return ColumnType.of(kind);
    }

    private static ColumnType decimal(DdlCursor p, String column, String name) throws DdlException {
        int maxPrecision = switch (name) {
            case "DECIMAL32" -> 9;
            case "DECIMAL64" -> 18;
            case "DECIMALV2" -> 27;
            default -> 38;
        };
        int precision = 10;
        int scale = 0;
        if (p.acceptSymbol("(")) {
            precision = p.positiveInt("DECIMAL precision");
            if (p.acceptSymbol(",")) {
                scale = p.positiveIntOrZero("DECIMAL scale");
            }
            p.expectSymbol(")");
        }
        if (precision < 1 || precision > maxPrecision) {
            throw p.error("precision " + precision + " of " + name + " column '" + column + "' is out of range [1, "
                    + maxPrecision + "]");
        }
        if (scale > precision || ("DECIMALV2".equals(name) && scale > 9)) {
            throw p.error("scale " + scale + " of " + name + " column '" + column + "' is out of range [0, "
                    + ("DECIMALV2".equals(name) ? Math.min(9, precision) : precision) + "]");
        }
        return new ColumnType(ColumnType.Kind.DECIMAL, -1, precision, scale);
    }

    private static int length(DdlCursor p, String column, String name, int max) throws DdlException {
        if (!p.acceptSymbol("(")) {
            return 1;
        }
        int length = p.positiveInt(name + " length");
        p.expectSymbol(")");
        if (length < 1 || length > max) {
            throw p.error("length " + length + " of " + name + " column '" + column + "' is out of range [1, " + max
                    + "]");
        }
        return length;
    }
}
