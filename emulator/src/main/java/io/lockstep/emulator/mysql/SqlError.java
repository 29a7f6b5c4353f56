package io.lockstep.emulator.mysql;

/**
 * A statement failed: answered with an ERR packet carrying a MySQL error code, SQLSTATE and message, as StarRocks'
 * FE answers (codes from StarRocks {@code fe/fe-core/src/main/java/com/starrocks/common/ErrorCode.java}, which keeps
 * MySQL's numbers). The connection stays open.
 */
final class SqlError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** {@code ERR_ACCESS_DENIED_ERROR}. */
    static final int ACCESS_DENIED = 1045;
    /** {@code ERR_NO_DB_ERROR}. */
    static final int NO_DB = 1046;
    /** {@code ERR_UNKNOWN_COM_ERROR}. */
    static final int UNKNOWN_COMMAND = 1047;
    /** {@code ERR_BAD_DB_ERROR}. */
    static final int BAD_DB = 1049;
    /** {@code ERR_TABLE_EXISTS_ERROR}. */
    static final int TABLE_EXISTS = 1050;
    /** {@code ERR_DB_CREATE_EXISTS}. */
    static final int DB_CREATE_EXISTS = 1007;
    /** {@code ERR_DB_DROP_EXISTS}. */
    static final int DB_DROP_EXISTS = 1008;
    /** {@code ERR_BAD_TABLE_ERROR}. */
    static final int BAD_TABLE = 1051;
    /** {@code ERR_BAD_FIELD_ERROR}: an unknown column. */
    static final int BAD_FIELD = 1054;
    /** {@code ERR_PARSE_ERROR} / {@code ERR_SYNTAX_ERROR}: what the emulator cannot parse or run. */
    static final int SYNTAX = 1064;
    /** {@code ERR_UNKNOWN_ERROR}. */
    static final int UNKNOWN_ERROR = 1105;
    /** {@code ERR_UNKNOWN_SYSTEM_VARIABLE}. */
    static final int UNKNOWN_SYSTEM_VARIABLE = 1193;
    /** {@code ERR_NOT_SUPPORTED_YET}. */
    static final int NOT_SUPPORTED = 1235;

    private final int code;
    private final String sqlState;

    SqlError(int code, String sqlState, String message) {
        super(message);
        this.code = code;
        this.sqlState = sqlState;
    }

    /** A statement the emulator does not run or cannot parse (1064, 42000). */
    static SqlError syntax(String message) {
        return new SqlError(SYNTAX, "42000", message);
    }

    int code() {
        return code;
    }

    String sqlState() {
        return sqlState;
    }
}
