package io.lockstep.emulator.mysql;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The statements of the query port that other front ends answer the same way: the SHOW, DESC and EXPLAIN statements
 * ({@link ShowStatements}) and queries on {@code information_schema} ({@link InformationSchema}), for the StarRocks
 * HTTP SQL API ({@code io.lockstep.emulator.server.SqlAction}), which StarRocks runs through the same statement
 * executor as its MySQL port (fe-core {@code http/rest/ExecuteSqlAction.java}: SELECT, SHOW, EXPLAIN, DESC, KILL).
 * The rows, column labels and column types are exactly the query port's.
 *
 * <p>Thread-safe: each call builds its own {@link ShowStatements} (which holds no state of its own beyond its
 * collaborators); {@link InformationSchema} synchronizes itself.
 */
public final class CatalogQueries {

    /**
     * The rows of one statement.
     *
     * @param columns column labels, in order
     * @param types   each column's type as StarRocks names it ({@code varchar}, {@code bigint(20)}, ...), or null
     *                where the query port takes it from the values; same size as {@code columns}
     * @param rows    the rows; values are Java objects (String, Long, Integer, BigDecimal, LocalDateTime, ...) or
     *                null
     */
    public record Rows(List<String> columns, List<String> types, List<List<Object>> rows) {
        public Rows {
            columns = List.copyOf(columns);
            types = Collections.unmodifiableList(new ArrayList<>(types));
        }
    }

    /** A statement the query port would answer with an ERR packet: its MySQL error code and message. */
    public static final class QueryException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int code;

        QueryException(SqlError error) {
            this(error.code(), error.getMessage());
        }

        /** A statement this class does not answer at all: 1064, as the query port's parser refuses it. */
        public QueryException(String message) {
            this(SqlError.SYNTAX, message);
        }

        private QueryException(int code, String message) {
            super(message);
            this.code = code;
        }

        /** @return the MySQL error code, e.g. 1049 unknown database, 1051 unknown table, 1064 syntax */
        public int code() {
            return code;
        }
    }

    /** Makes the SHOW statements of one request, with the requester's name and connection id. */
    @FunctionalInterface
    interface ShowFactory {
        ShowStatements create();
    }

    private final ShowFactory shows;

    CatalogQueries(ShowFactory shows) {
        this.shows = Objects.requireNonNull(shows, "shows");
    }

    /**
     * Runs a SHOW, DESC or EXPLAIN statement as the query port does.
     *
     * @param sql          the statement, trailing semicolon stripped
     * @param database     the current database, or null
     * @param user         the requesting user (SHOW PROCESSLIST)
     * @param connectionId the request's connection id (SHOW PROCESSLIST)
     * @return its rows, or null when it is none of the query port's SHOW/DESC/EXPLAIN statements
     * @throws QueryException as the query port's ERR packet (unknown database or table, bad WHERE, ...)
     */
    public Rows show(String sql, String database, String user, int connectionId) {
        try {
            return rows(shows.create().execute(sql, database, user, connectionId));
        } catch (SqlError e) {
            throw new QueryException(e);
        }
    }

    /**
     * Runs a query on {@code information_schema} as the query port does, when it is one.
     *
     * @param sql      a SELECT
     * @param database the current database, or null
     * @return its rows, or null when the query neither names {@code information_schema} nor runs in it
     * @throws QueryException for SQL the information schema does not run (1064)
     */
    public Rows informationSchema(String sql, String database) {
        if (!InformationSchemaSql.references(sql) && !ShowStatements.isSchema(database)) {
            return null;
        }
        try {
            return rows(shows.create().informationSchema(sql, database));
        } catch (SqlError e) {
            throw new QueryException(e);
        }
    }

    private static Rows rows(SqlResult.Rows rows) {
        return rows == null ? null : new Rows(rows.columns(), rows.types(), rows.rows());
    }
}
