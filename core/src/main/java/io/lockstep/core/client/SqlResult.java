package io.lockstep.core.client;

import java.util.List;

/**
 * The result of one SELECT through the StarRocks HTTP SQL API.
 *
 * @param columns the {@code meta} line's columns, in order
 * @param rows    the {@code data} lines; values are {@code Long}, {@code java.math.BigDecimal}, {@code String},
 *                {@code Boolean} or null, as the JSON carried them
 */
public record SqlResult(List<SqlColumn> columns, List<List<Object>> rows) {
}
