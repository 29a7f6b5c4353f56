package io.lockstep.emulator.catalog;

import java.util.Objects;

/**
 * One column of a table.
 *
 * @param name         column name as declared (case preserved; StarRocks matches column names case-insensitively)
 * @param type         the declared type
 * @param nullable     false when declared {@code NOT NULL} (key columns are always NOT NULL)
 * @param defaultValue the declared {@code DEFAULT} literal, or null when none
 */
public record ColumnSchema(String name, ColumnType type, boolean nullable, String defaultValue) {
    public ColumnSchema {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }
}
