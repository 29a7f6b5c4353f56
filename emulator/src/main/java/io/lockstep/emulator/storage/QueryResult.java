package io.lockstep.emulator.storage;

import java.util.List;

/**
 * The result of a read query.
 *
 * @param columns     column labels, in order
 * @param columnTypes each column's type as StarRocks prints it in the HTTP SQL API's {@code meta} line (e.g.
 *                    {@code varchar}, {@code int(11)}, {@code bigint(20)}, {@code datetime}); same size as
 *                    {@code columns}
 * @param rows        rows; each value is the JDBC object the store returned (Long, BigDecimal, String, ...)
 */
public record QueryResult(List<String> columns, List<String> columnTypes, List<List<Object>> rows) {

    /** A result whose column types are not known ({@code varchar} each). */
    public QueryResult(List<String> columns, List<List<Object>> rows) {
        this(columns, columns.stream().map(c -> "varchar").toList(), rows);
    }
}
