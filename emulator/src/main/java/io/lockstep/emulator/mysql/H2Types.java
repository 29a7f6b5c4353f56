package io.lockstep.emulator.mysql;

import io.lockstep.emulator.catalog.ColumnType;
import java.util.List;
import java.util.Locale;

/**
 * StarRocks types as the H2 store's types: the target of {@code CAST(x AS t)} (StarRocks' cast types, FE
 * {@code catalog/ScalarType.java} / grammar {@code sql/parser/StarRocks.g4} {@code type}) and the type a column's
 * values are cast to before an INSERT or UPDATE writes them (the store's mapping, storage/H2Sql.java, except that
 * strings are cast to unbounded VARCHAR so that {@link DmlStatements} can check their lengths in bytes instead of H2
 * cutting them). Stateless.
 */
final class H2Types {
    private H2Types() {
    }

    /**
     * The H2 type of a CAST target.
     *
     * @param name    the type's name as written (any case)
     * @param numbers its length, or precision and scale, as written
     * @throws SqlError 1064 for a type StarRocks cannot cast to
     */
    static String castTarget(String name, List<String> numbers) {
        return switch (name.toUpperCase(Locale.ROOT)) {
            case "STRING", "VARCHAR", "CHAR", "TEXT", "JSON" -> "VARCHAR";
            case "TINYINT" -> "TINYINT";
            case "SMALLINT" -> "SMALLINT";
            case "INT", "INTEGER" -> "INTEGER";
            case "BIGINT", "SIGNED", "UNSIGNED" -> "BIGINT";
            case "LARGEINT" -> "NUMERIC(39, 0)";
            case "FLOAT" -> "REAL";
            case "DOUBLE", "REAL" -> "DOUBLE PRECISION";
            case "DECIMAL", "DECIMALV2", "DECIMALV3", "DECIMAL32", "DECIMAL64", "DECIMAL128", "NUMERIC" ->
                    "DECIMAL(" + (numbers.isEmpty() ? "10" : numbers.get(0)) + ", "
                            + (numbers.size() > 1 ? numbers.get(1) : "0") + ")";
            case "DATE" -> "DATE";
            case "DATETIME", "TIMESTAMP" -> "TIMESTAMP(6)";
            case "BOOLEAN", "BOOL" -> "BOOLEAN";
            default -> throw SqlErrors.analysis("Invalid type '" + name + "' in CAST");
        };
    }

    /** The H2 type a column's values are cast to before they are written. */
    static String column(ColumnType type) {
        return switch (type.kind()) {
            case BOOLEAN -> "BOOLEAN";
            case TINYINT -> "TINYINT";
            case SMALLINT -> "SMALLINT";
            case INT -> "INTEGER";
            case BIGINT -> "BIGINT";
            case LARGEINT -> "NUMERIC(39, 0)";
            case FLOAT -> "REAL";
            case DOUBLE -> "DOUBLE PRECISION";
            case DECIMAL -> "DECIMAL(" + type.precision() + ", " + type.scale() + ")";
            case CHAR, VARCHAR, STRING, JSON -> "VARCHAR";
            case DATE -> "DATE";
            case DATETIME -> "TIMESTAMP(6)";
        };
    }
}
