package io.lockstep.app.schema;

import java.util.Locale;
import java.util.Objects;

/**
 * The one parser of a target's column rows, for every reader that learns types: {@code DESC `db`.`t`}
 * ({@code Field}, {@code Type}, {@code Null}; StarRocks docs "DESC", Apache Doris docs "DESCRIBE") and
 * {@code information_schema.columns} ({@code COLUMN_NAME}, {@code COLUMN_TYPE}, {@code IS_NULLABLE}; StarRocks docs
 * "information_schema.columns"). Both say nullability as {@code YES}/{@code NO} (Doris: {@code Yes}/{@code No}).
 *
 * <p>{@code information_schema.columns} spells two StarRocks types as MySQL's (StarRocks BE
 * {@code exec/schema_scanner/schema_columns_scanner.cpp}, {@code to_mysql_data_type_string}): BOOLEAN as
 * {@code tinyint(1)} and LARGEINT as {@code bigint(20) unsigned}; they are read back as {@code boolean} and
 * {@code largeint(40)}, the types DESC prints (a TINYINT is {@code tinyint(4)} there, and StarRocks has no unsigned
 * BIGINT), so that {@link ValueRules} checks the same rule whichever reader read the column.
 */
final class DescribedColumn {

    private DescribedColumn() {
    }

    /**
     * @param name the column name ({@code Field}, {@code COLUMN_NAME})
     * @param type the type as the target prints it ({@code Type}, {@code COLUMN_TYPE}), may be null
     * @param nullable {@code YES}/{@code NO} ({@code Null}, {@code IS_NULLABLE}); null counts as nullable
     * @return the column
     * @throws NullPointerException without a name
     */
    static TargetColumn of(Object name, Object type, Object nullable) {
        return new TargetColumn(Objects.requireNonNull(name, "name").toString(), type(type),
                nullable == null || nullable.toString().toUpperCase(Locale.ROOT).startsWith("Y"));
    }

    private static String type(Object type) {
        if (type == null) {
            return null;
        }
        String text = type.toString().strip();
        String lower = text.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        return switch (lower) {
            case "tinyint(1)" -> "boolean";
            case "bigint(20) unsigned", "bigint unsigned" -> "largeint(40)";
            default -> text;
        };
    }
}
