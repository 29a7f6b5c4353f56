package io.lockstep.emulator.load;

/**
 * One parsed, type-converted row of a load.
 *
 * <p>Values are in the table's column order ({@code TableSchema.columns()}), one Java value per column:
 * Boolean, Byte/Short/Integer/Long, BigInteger (LARGEINT), Float/Double, BigDecimal (DECIMAL, scale applied),
 * String (CHAR/VARCHAR/STRING/JSON as JSON text), LocalDate (DATE), LocalDateTime (DATETIME), or null.
 * A column not mentioned by the load holds its default (or null).
 *
 * @param values   column values; the array is owned by this record after construction
 * @param delete   true when the row carried {@code __op} = 1 (delete by key; PRIMARY KEY tables only)
 * @param provided for a partial update ({@code partial_update: true}, row mode): which columns the load wrote; the
 *                 others keep the stored row's values, or take their defaults (held in {@code values}) when the key
 *                 is new. Null for a full row.
 */
public record RowChange(Object[] values, boolean delete, boolean[] provided) {
    /** A full row. */
    public RowChange(Object[] values, boolean delete) {
        this(values, delete, null);
    }
}
