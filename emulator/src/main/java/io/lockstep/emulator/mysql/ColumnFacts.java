package io.lockstep.emulator.mysql;

import io.lockstep.emulator.catalog.ColumnType;

/**
 * What {@code information_schema.columns} says about a column type, as StarRocks' BE fills it
 * (be {@code exec/schema_scanner/schema_columns_scanner.cpp}: {@code to_mysql_data_type_string} and
 * {@code type_to_string}; BOOLEAN reads {@code tinyint} / {@code tinyint(1)}, LARGEINT {@code bigint unsigned} /
 * {@code bigint(20) unsigned}, STRING {@code varchar(65533)}).
 *
 * @param dataType      DATA_TYPE ({@code bigint}, {@code varchar}, {@code decimal}, ...)
 * @param columnType    COLUMN_TYPE ({@code bigint(20)}, {@code varchar(32)}, {@code decimal(10,2)}, ...)
 * @param charLength    CHARACTER_MAXIMUM_LENGTH for CHAR/VARCHAR/STRING, else null
 * @param precision     NUMERIC_PRECISION for numeric types (digits), else null
 * @param scale         NUMERIC_SCALE for numeric types (0 for integers), else null
 * @param size          COLUMN_SIZE: the length of a string type, the precision of a numeric one, 10 for DATE, 19 for
 *                      DATETIME
 * @param decimalDigits DECIMAL_DIGITS: the scale of a numeric type, else null
 */
record ColumnFacts(String dataType, String columnType, Long charLength, Long precision, Long scale, Long size,
                   Long decimalDigits) {

    static ColumnFacts of(ColumnType type) {
        return switch (type.kind()) {
            case BOOLEAN -> integer("tinyint", "tinyint(1)", 1);
            case TINYINT -> integer("tinyint", "tinyint(4)", 3);
            case SMALLINT -> integer("smallint", "smallint(6)", 5);
            case INT -> integer("int", "int(11)", 10);
            case BIGINT -> integer("bigint", "bigint(20)", 19);
            case LARGEINT -> integer("bigint unsigned", "bigint(20) unsigned", 39);
            case FLOAT -> new ColumnFacts("float", "float", null, 7L, null, 7L, null);
            case DOUBLE -> new ColumnFacts("double", "double", null, 15L, null, 15L, null);
            case DECIMAL -> new ColumnFacts("decimal", "decimal(" + type.precision() + "," + type.scale() + ")", null,
                    (long) type.precision(), (long) type.scale(), (long) type.precision(), (long) type.scale());
            case CHAR -> text("char", type.length());
            case VARCHAR, STRING -> text("varchar", type.length());
            case DATE -> new ColumnFacts("date", "date", null, null, null, 10L, null);
            case DATETIME -> new ColumnFacts("datetime", "datetime", null, null, null, 19L, null);
            case JSON -> new ColumnFacts("json", "json", null, null, null, null, null);
        };
    }

    /**
     * DATETIME_PRECISION: 0 for DATE and DATETIME (StarRocks' BE leaves it NULL; MySQL writes 0, and Connector/J's
     * getColumns adds it to 19 for a DATETIME's COLUMN_SIZE, so NULL would make that size NULL), else null.
     */
    Long datetimePrecision() {
        return dataType.equals("date") || dataType.equals("datetime") ? 0L : null;
    }

    private static ColumnFacts integer(String dataType, String columnType, long digits) {
        return new ColumnFacts(dataType, columnType, null, digits, 0L, digits, 0L);
    }

    private static ColumnFacts text(String dataType, int length) {
        return new ColumnFacts(dataType, dataType + "(" + length + ")", (long) length, null, null, (long) length,
                null);
    }
}
