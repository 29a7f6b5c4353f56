package io.lockstep.emulator.catalog;

import java.util.Objects;

/**
 * A StarRocks column type from the supported DDL subset.
 *
 * @param kind      the type family
 * @param length    declared length for CHAR/VARCHAR (bytes), or -1 when not declared
 * @param precision declared precision for DECIMAL, or -1
 * @param scale     declared scale for DECIMAL, or -1
 */
public record ColumnType(Kind kind, int length, int precision, int scale) {

    /** Type families supported by the emulator's DDL subset. */
    public enum Kind {
        BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, LARGEINT, FLOAT, DOUBLE, DECIMAL,
        CHAR, VARCHAR, STRING, DATE, DATETIME, JSON
    }

    public ColumnType {
        Objects.requireNonNull(kind, "kind");
    }

    /** A type without length, precision or scale (e.g. INT, DATE). */
    public static ColumnType of(Kind kind) {
        return new ColumnType(kind, -1, -1, -1);
    }
}
