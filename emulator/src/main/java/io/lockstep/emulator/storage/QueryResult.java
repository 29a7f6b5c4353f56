package io.lockstep.emulator.storage;

import java.util.List;

/**
 * The result of a read query.
 *
 * @param columns column labels, in order
 * @param rows    rows; each value is the JDBC object the store returned (Long, BigDecimal, String, ...)
 */
public record QueryResult(List<String> columns, List<List<Object>> rows) {
}
