package io.lockstep.core.format;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The column list of one table's CSV loads: the source columns in the order a record's fields are written, and the
 * {@code columns} header that names them (StarRocks docs "STREAM LOAD", data_desc: columns; Doris docs "Stream Load").
 * Names are matched case-insensitively, as the servers match a JSON row's keys to columns. Immutable.
 */
final class CsvColumns {
    private final List<String> names;
    private final Map<String, Integer> indexByLowerName;
    private final String header;
    /** True if the list came from the table's configured {@code columns} header (not sent again). */
    private final boolean configured;

    /**
     * The table's rows are CSV lines given by the job (as with the official connector's CSV default), sent as they
     * are: no column list of Lockstep's own.
     */
    static final CsvColumns GIVEN_LINES = new CsvColumns(List.of(), true);

    private CsvColumns(List<String> names, boolean configured) {
        this.names = List.copyOf(names);
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            index.put(names.get(i).toLowerCase(Locale.ROOT), i);
        }
        this.indexByLowerName = Map.copyOf(index);
        this.header = names.stream().map(n -> "`" + n + "`").collect(Collectors.joining(","));
        this.configured = configured;
    }

    /**
     * The source columns of a configured {@code columns} header: its items without {@code =} (an item with
     * {@code =} is a derived column the server computes, not a field of the record), backquotes removed.
     *
     * @throws IllegalArgumentException naming {@code where} if no item is a source column or one is named twice
     */
    static CsvColumns configured(String columnsHeader, String where) {
        List<String> names = new ArrayList<>();
        for (String item : columnsHeader.split(",")) {
            String name = item.trim();
            if (!name.isEmpty() && !name.contains("=")) {
                names.add(name.length() >= 2 && name.startsWith("`") && name.endsWith("`")
                        ? name.substring(1, name.length() - 1) : name);
            }
        }
        if (names.isEmpty()) {
            throw new IllegalArgumentException("the columns header of " + where + " ('" + columnsHeader + "') names "
                    + "no source column, so a CSV record would have no field");
        }
        return checkedUnique(names, true, where);
    }

    /**
     * The columns of a table's first row, in the row's key order.
     *
     * @throws IllegalArgumentException naming {@code where} if a key appears twice (ignoring case)
     */
    static CsvColumns ofFirstRow(List<String> keys, String where) {
        return checkedUnique(keys, false, where);
    }

    private static CsvColumns checkedUnique(List<String> names, boolean configured, String where) {
        for (String name : names) {
            if (name.isEmpty() || name.indexOf('`') >= 0 || name.indexOf(',') >= 0) {
                throw new IllegalArgumentException("the column '" + name + "' of " + where + " cannot be named in a "
                        + "columns header (empty, or holding a backquote or comma)");
            }
        }
        CsvColumns columns = new CsvColumns(names, configured);
        if (columns.indexByLowerName.size() != names.size()) {
            throw new IllegalArgumentException("the columns of " + where + " " + names + " name a column twice "
                    + "(names are compared ignoring case)");
        }
        return columns;
    }

    /** Index of the field of column {@code name} (any case), or -1. */
    int indexOf(String name) {
        Integer index = indexByLowerName.get(name.toLowerCase(Locale.ROOT));
        return index == null ? -1 : index;
    }

    int size() {
        return names.size();
    }

    String name(int index) {
        return names.get(index);
    }

    List<String> names() {
        return names;
    }

    /** The {@code columns} header value: the names back-quoted, comma-separated. */
    String header() {
        return header;
    }

    boolean isConfigured() {
        return configured;
    }

    /** True for {@link #GIVEN_LINES}. */
    boolean isGivenLines() {
        return this == GIVEN_LINES;
    }
}
