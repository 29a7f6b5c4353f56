package io.lockstep.emulator.mysql;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** What a statement answers: an OK packet or a text result set. */
sealed interface SqlResult {

    /** OK with the number of affected rows (0 for DDL and session statements). */
    record Ok(long affectedRows) implements SqlResult {
    }

    /**
     * Rows with column labels and column types; values are Java objects (String, Long, Integer, BigDecimal, Boolean,
     * LocalDate, LocalDateTime, ...) or null, written as text.
     *
     * @param columns column labels, in order
     * @param types   each column's type as StarRocks names it ({@code varchar}, {@code bigint(20)}, {@code int(11)},
     *                {@code decimal64(10, 2)}, {@code datetime}, ...; {@link ResultColumnType} maps it to the
     *                protocol's column definition), or null where the type is taken from the column's first non-null
     *                value; same size as {@code columns}
     * @param rows    the rows
     */
    record Rows(List<String> columns, List<String> types, List<List<Object>> rows) implements SqlResult {
        public Rows {
            columns = List.copyOf(columns);
            types = Collections.unmodifiableList(new ArrayList<>(types));
            if (types.size() != columns.size()) {
                throw new IllegalArgumentException(columns.size() + " columns but " + types.size() + " types");
            }
        }

        /** Rows whose column types are taken from their values. */
        public Rows(List<String> columns, List<List<Object>> rows) {
            this(columns, Collections.nCopies(columns.size(), null), rows);
        }

        /** Rows whose columns are all VARCHAR, as StarRocks types every column of SHOW PROC and most SHOWs. */
        static Rows varchar(List<String> columns, List<List<Object>> rows) {
            return new Rows(columns, Collections.nCopies(columns.size(), "varchar"), rows);
        }
    }
}
