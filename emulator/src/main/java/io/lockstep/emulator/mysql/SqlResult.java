package io.lockstep.emulator.mysql;

import java.util.List;

/** What a statement answers: an OK packet or a text result set. */
sealed interface SqlResult {

    /** OK with the number of affected rows (0 for DDL and session statements). */
    record Ok(long affectedRows) implements SqlResult {
    }

    /**
     * Rows with column labels; values are Java objects (String, Long, Integer, BigDecimal, Boolean, LocalDate,
     * LocalDateTime, ...) or null, written as text.
     */
    record Rows(List<String> columns, List<List<Object>> rows) implements SqlResult {
        public Rows {
            columns = List.copyOf(columns);
        }
    }
}
