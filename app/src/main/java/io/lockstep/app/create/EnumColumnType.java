package io.lockstep.app.create;

/**
 * The StarRocks type of an enum or set column: a VARCHAR long enough for its longest value when the labels are known,
 * else STRING. The value of a MySQL/MariaDB SET is its labels joined by commas (Debezium's
 * {@code io.debezium.data.EnumSet}).
 */
final class EnumColumnType {

    /** The Connect schema parameter that lists an enum's or set's labels, comma-separated (Debezium). */
    static final String ALLOWED = "allowed";

    private EnumColumnType() {
    }

    /**
     * @param column the column; its {@link SourceColumn#length()} is the longest value in characters when known
     *     (MySQL's {@code CHARACTER_MAXIMUM_LENGTH}: the longest label of an ENUM, all labels and commas of a SET),
     *     else the {@code allowed} parameter lists the labels
     * @param set true for a set (a value is several labels joined by commas)
     * @return {@code VARCHAR(4n)} for the longest value of {@code n} characters, or {@code STRING} when unknown
     */
    static String of(SourceColumn column, boolean set) {
        if (column.length() != null && column.length() > 0) {
            return StarRocksColumnType.varcharForCharacters(column.length());
        }
        String allowed = column.parameters().get(ALLOWED);
        if (allowed == null || allowed.isEmpty()) {
            return "STRING";
        }
        if (set) {
            return StarRocksColumnType.varcharForCharacters(allowed.codePointCount(0, allowed.length()));
        }
        int longest = 0;
        for (String label : allowed.split(",", -1)) {
            longest = Math.max(longest, label.codePointCount(0, label.length()));
        }
        return StarRocksColumnType.varcharForCharacters(longest);
    }
}
