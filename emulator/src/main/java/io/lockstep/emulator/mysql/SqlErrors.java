package io.lockstep.emulator.mysql;

import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The errors of the query port as the client gets them: StarRocks' (or Doris') error code, SQLSTATE and message, and
 * never a text of the H2 engine underneath.
 *
 * <p>Statements raise {@link SqlError}s with MySQL's classic numbers (the numbers Doris' FE still sends, from Doris
 * {@code fe/fe-core/src/main/java/org/apache/doris/common/ErrorCode.java}); {@link #onWire} renumbers the ones that
 * StarRocks 3.3+ moved, following StarRocks {@code fe/fe-core/src/main/java/com/starrocks/common/ErrorCode.java}:
 * unknown database {@code ERR_BAD_DB_ERROR(5501, "3F000")}, unknown table {@code ERR_BAD_TABLE_ERROR(5502,
 * "42602")}, unknown column {@code ERR_BAD_FIELD_ERROR(5509, "42S22")}; syntax and analysis errors are 1064 with
 * SQLSTATE HY000 ("Getting syntax error ...", "Getting analyzing error. Detail message: ..."). The full table is in
 * docs/protocol.md ("Query port").
 *
 * <p>{@link #fromStore} turns a failure of the H2 store into a StarRocks error by H2's error code, naming the object
 * from the statement, not from H2's message. Stateless.
 */
final class SqlErrors {
    private static final Logger LOG = LoggerFactory.getLogger(SqlErrors.class);
    /** H2 error codes (org.h2.api.ErrorCode), as numbers so that no H2 class decides a client's error. */
    private static final int H2_TABLE_NOT_FOUND = 42102;
    private static final int H2_TABLE_NOT_FOUND_WITH_CANDIDATES = 42103;
    private static final int H2_TABLE_NOT_FOUND_DATABASE_EMPTY = 42104;
    private static final int H2_COLUMN_NOT_FOUND = 42122;
    private static final int H2_SCHEMA_NOT_FOUND = 90079;
    private static final int H2_FUNCTION_NOT_FOUND = 90022;
    private static final int H2_SYNTAX_ERROR = 42000;
    private static final int H2_SYNTAX_ERROR_EXPECTED = 42001;
    private static final int H2_DATA_CONVERSION = 22018;
    private static final int H2_INVALID_DATETIME = 22007;
    private static final int H2_NUMERIC_OUT_OF_RANGE = 22003;
    private static final int H2_DIVISION_BY_ZERO = 22012;
    private static final int H2_VALUE_TOO_LONG = 22001;
    private static final int H2_NULL_NOT_ALLOWED = 23502;
    private static final int H2_AMBIGUOUS_COLUMN = 90059;
    private static final int H2_MUST_GROUP_BY = 90016;
    private static final Pattern QUOTED = Pattern.compile("\"((?:[^\"]|\"\")*)\"");

    private SqlErrors() {
    }

    /** 1049 (Doris) / 5501 (StarRocks): {@code Unknown database 'db'}. */
    static SqlError unknownDatabase(String db) {
        return new SqlError(SqlError.BAD_DB, "42000", "Unknown database '" + db + "'");
    }

    /** 1051 (Doris) / 5502 (StarRocks): {@code Unknown table 'db.t'}. */
    static SqlError unknownTable(String db, String table) {
        return new SqlError(SqlError.BAD_TABLE, "42S02", "Unknown table '" + (db == null ? "" : db + ".") + table
                + "'");
    }

    /** 1054 (Doris) / 5509 (StarRocks): {@code Unknown column 'c' in 'where'}. */
    static SqlError unknownColumn(String column, String where) {
        return new SqlError(SqlError.BAD_FIELD, "42S22", "Unknown column '" + column + "' in '" + where + "'");
    }

    /** 1064: the statement cannot be parsed; {@code position} is the 0-based offset in {@code sql}. */
    static SqlError syntax(String sql, int position, String detail) {
        int line = 1;
        int column = 0;
        for (int i = 0; i < Math.min(position, sql.length()); i++) {
            if (sql.charAt(i) == '\n') {
                line++;
                column = 0;
            } else {
                column++;
            }
        }
        return new SqlError(SqlError.SYNTAX, "42000", "Getting syntax error at line " + line + ", column " + column
                + ". Detail message: " + detail + ".");
    }

    /** 1064: the statement parses but cannot be analysed ("Getting analyzing error. Detail message: ..."). */
    static SqlError analysis(String detail) {
        return new SqlError(SqlError.SYNTAX, "42000", "Getting analyzing error. Detail message: " + detail
                + (detail.endsWith(".") ? "" : "."));
    }

    /**
     * StarRocks' "No matching function with signature: name(types)." (FE
     * {@code sql/analyzer/ExpressionAnalyzer.java}), an analysis error.
     */
    static SqlError noMatchingFunction(String name, String argumentTypes) {
        return analysis("No matching function with signature: " + name + "(" + argumentTypes + ").");
    }

    /** 1193: {@code Unknown system variable 'x'}. */
    static SqlError unknownVariable(String name) {
        return new SqlError(SqlError.UNKNOWN_SYSTEM_VARIABLE, "HY000", "Unknown system variable '" + name + "'");
    }

    /**
     * The error as the dialect's FE sends it: for StarRocks the renumbered codes of StarRocks' ErrorCode.java (see the
     * class comment); for Doris unchanged.
     */
    static SqlError onWire(SqlError e, QueryDialect dialect) {
        if (!dialect.isStarRocks()) {
            return e;
        }
        return switch (e.code()) {
            case SqlError.BAD_DB -> new SqlError(5501, "3F000", e.getMessage());
            case SqlError.BAD_TABLE -> new SqlError(5502, "42602", e.getMessage());
            case SqlError.BAD_FIELD -> new SqlError(5509, "42S22", e.getMessage());
            case SqlError.SYNTAX -> new SqlError(SqlError.SYNTAX, "HY000", e.getMessage());
            default -> e;
        };
    }

    /**
     * A failure of the H2 store running a translated statement, as a StarRocks error. H2's message never reaches the
     * client (it is logged at DEBUG).
     *
     * @param failure   the store's exception (its cause is H2's SQLException)
     * @param statement the statement as the client wrote it (for the error's context)
     */
    static SqlError fromStore(RuntimeException failure, String statement) {
        SQLException h2 = failure.getCause() instanceof SQLException s ? s : null;
        if (h2 == null) {
            LOG.debug("query port: the store refused a statement: {}", failure.getMessage());
            return analysis("the emulator cannot run this statement");
        }
        return fromH2(h2, statement);
    }

    /**
     * H2's refusal of a translated statement as a StarRocks error, without H2's text (logged at DEBUG).
     *
     * @param h2        H2's exception
     * @param statement the statement as the client wrote it (for the error's context)
     */
    static SqlError fromH2(SQLException h2, String statement) {
        String message = h2.getMessage();
        LOG.debug("query port: the store refused a statement: {}", message);
        String name = firstQuoted(message);
        return switch (h2.getErrorCode()) {
            case H2_TABLE_NOT_FOUND, H2_TABLE_NOT_FOUND_WITH_CANDIDATES, H2_TABLE_NOT_FOUND_DATABASE_EMPTY ->
                    unknownTable(null, name);
            case H2_COLUMN_NOT_FOUND -> unknownColumn(name, "field list");
            case H2_SCHEMA_NOT_FOUND -> unknownDatabase(name);
            case H2_FUNCTION_NOT_FOUND -> noMatchingFunction(name.toLowerCase(java.util.Locale.ROOT), "...");
            case H2_AMBIGUOUS_COLUMN -> new SqlError(1052, "23000", "Column '" + name + "' is ambiguous");
            case H2_MUST_GROUP_BY -> analysis("'" + name + "' must be an aggregate expression or appear in "
                    + "GROUP BY clause");
            case H2_DATA_CONVERSION -> analysis("a value cannot be converted to the type it is used as");
            case H2_DIVISION_BY_ZERO -> analysis("division by zero");
            case H2_INVALID_DATETIME -> analysis("Incorrect datetime value in a date/time conversion");
            case H2_NUMERIC_OUT_OF_RANGE -> analysis("a numeric value is out of the range of its type");
            case H2_VALUE_TOO_LONG -> new SqlError(SqlError.SYNTAX, "22000", "Insert has filtered data: a value is "
                    + "longer than its column allows");
            case H2_NULL_NOT_ALLOWED -> new SqlError(SqlError.SYNTAX, "22000", "Insert has filtered data: column '"
                    + name + "' is NOT NULL and got NULL");
            case H2_SYNTAX_ERROR, H2_SYNTAX_ERROR_EXPECTED -> syntax(statement, 0,
                    "the emulator cannot parse this statement");
            default -> analysis("the emulator cannot run this statement (store error " + h2.getErrorCode() + ")");
        };
    }

    /** The first double-quoted name in an H2 message, with the schema part removed ("db"."t" -> t). */
    private static String firstQuoted(String message) {
        Matcher m = QUOTED.matcher(message);
        if (!m.find()) {
            return "?";
        }
        String name = m.group(1).replace("\"\"", "\"");
        int dot = name.lastIndexOf('.');
        return dot >= 0 ? name.substring(dot + 1) : name;
    }
}
