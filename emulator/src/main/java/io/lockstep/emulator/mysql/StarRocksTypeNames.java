package io.lockstep.emulator.mysql;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;

/** The StarRocks name of a JDBC result column's type ({@code bigint(20)}, {@code varchar}, {@code datetime}, ...). */
final class StarRocksTypeNames {
    private StarRocksTypeNames() {
    }

    static String of(ResultSetMetaData meta, int column) throws SQLException {
        return switch (meta.getColumnType(column)) {
            case Types.BOOLEAN -> "boolean";
            case Types.TINYINT -> "tinyint(4)";
            case Types.SMALLINT -> "smallint(6)";
            case Types.INTEGER -> "int(11)";
            case Types.BIGINT -> "bigint(20)";
            case Types.NUMERIC, Types.DECIMAL -> "decimal(" + meta.getPrecision(column) + ", " + meta.getScale(column)
                    + ")";
            case Types.REAL, Types.FLOAT -> "float";
            case Types.DOUBLE -> "double";
            case Types.DATE -> "date";
            case Types.TIMESTAMP -> "datetime";
            default -> "varchar";
        };
    }
}
