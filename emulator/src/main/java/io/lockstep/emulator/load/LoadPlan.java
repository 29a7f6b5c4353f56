package io.lockstep.emulator.load;

import com.fasterxml.jackson.databind.JsonNode;
import io.lockstep.emulator.catalog.ColumnSchema;
import io.lockstep.emulator.catalog.KeysType;
import io.lockstep.emulator.catalog.TableSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How the source columns of one load become the table's columns, planned once per load the way the StarRocks FE
 * plans a stream load from the {@code columns} header (docs "STREAM LOAD", "Load to Primary Key tables").
 *
 * <p>Source columns are, in data order: the {@code columns} items without {@code =}; or, without the header, the
 * table's columns in declaration order (for JSON simple mode on a PRIMARY KEY table, plus an optional
 * {@code __op} key). Each table column takes, in this order of preference, a derived item of its name, a source
 * column of its name (names match case-insensitively), its DEFAULT, or NULL. A NOT NULL column without any of
 * these fails the plan with ANALYSIS_ERROR "Column has no default value. column: X". {@code __op} is read only for
 * PRIMARY KEY tables; on other tables it is an unused source column, as StarRocks ignores it there.
 *
 * <p>Immutable after construction; {@link #assemble} may be called from several threads.
 */
final class LoadPlan {
    /** The pseudo-column selecting upsert (0) or delete (1) per row on PRIMARY KEY tables. */
    static final String OP_COLUMN = "__op";

    private final TableSchema table;
    private final boolean strictMode;
    private final List<String> sourceNames;
    private final Map<String, Integer> sourceIndexByLowerName;
    /** Fast path for keys spelled as declared. */
    private final Map<String, Integer> sourceIndexByExactName;
    private final Source[] columnSources;
    private final Source opSource;
    /** The where header's predicate, or null. */
    private final WherePredicate where;
    /** Doris merge_type DELETE: every row deletes its key. */
    private final boolean deleteAll;
    /** Name of the delete-flag source column, for errors. */
    private final String opName;
    /** Doris merge_type MERGE: rows matching this delete their key; null otherwise. */
    private final WherePredicate deleteWhen;
    /** Partial update: the columns the load writes (by table column index); null for full rows. */
    private final boolean[] provided;

    /** Where one value of the row comes from. */
    private sealed interface Source {
    }

    private record FromSource(int index) implements Source {
    }

    private record Constant(String text) implements Source {
    }

    private record DefaultValue(String text) implements Source {
    }

    private LoadPlan(TableSchema table, boolean strictMode, List<String> sourceNames, Source[] columnSources,
                     Source opSource, String opName, WherePredicate where, boolean deleteAll,
                     WherePredicate deleteWhen, boolean[] provided) {
        this.provided = provided;
        this.where = where;
        this.deleteAll = deleteAll;
        this.opName = opName;
        this.deleteWhen = deleteWhen;
        this.table = table;
        this.strictMode = strictMode;
        this.sourceNames = List.copyOf(sourceNames);
        this.sourceIndexByLowerName = new HashMap<>();
        this.sourceIndexByExactName = new HashMap<>();
        for (int i = 0; i < sourceNames.size(); i++) {
            sourceIndexByLowerName.putIfAbsent(sourceNames.get(i).toLowerCase(Locale.ROOT), i);
        }
        for (int i = 0; i < sourceNames.size(); i++) {
            String name = sourceNames.get(i);
            if (sourceIndexByLowerName.get(name.toLowerCase(Locale.ROOT)) == i) {
                sourceIndexByExactName.putIfAbsent(name, i);
            }
        }
        this.columnSources = columnSources;
        this.opSource = opSource;
    }

    /**
     * @param implicitOp whether a PRIMARY KEY table without a {@code columns} header also reads an {@code __op}
     *                   source (JSON simple mode)
     * @throws LoadFormatException ANALYSIS_ERROR when the header names an unknown column or leaves a NOT NULL
     *                             column without a value
     */
    static LoadPlan create(TableSchema table, StreamLoadFormat format, boolean implicitOp)
            throws LoadFormatException {
        // Only the dialect's delete-flag table model reads the flag (StarRocks: PRIMARY KEY reads __op; Doris:
        // UNIQUE KEY reads __DORIS_DELETE_SIGN__); on other tables the column is an unused source.
        boolean primaryKey = table.keysType() == format.deleteTables();
        String opColumn = format.deleteColumn();
        String opLower = opColumn.toLowerCase(Locale.ROOT);
        List<String> sourceNames = new ArrayList<>();
        Map<String, ColumnsHeader.Expression> derived = new HashMap<>();
        ColumnsHeader header = format.columns();
        if (header == null) {
            for (ColumnSchema column : table.columns()) {
                sourceNames.add(column.name());
            }
            if (implicitOp && primaryKey) {
                sourceNames.add(opColumn);
            }
        } else {
            for (ColumnsHeader.Item item : header.items()) {
                String lower = item.name().toLowerCase(Locale.ROOT);
                if (item.isSource()) {
                    sourceNames.add(item.name());
                } else if (derived.put(lower, item.expression()) != null) {
                    throw analysis("column '" + item.name() + "' is assigned twice in the columns header");
                }
            }
            for (String lower : derived.keySet()) {
                if (!lower.equals(opLower) && table.columnIndex(lower) < 0) {
                    throw analysis("Unknown column '" + lower + "' in table '" + table.qualifiedName()
                            + "' (derived in the columns header)");
                }
            }
        }
        Map<String, Integer> sourceIndex = new HashMap<>();
        for (int i = 0; i < sourceNames.size(); i++) {
            sourceIndex.putIfAbsent(sourceNames.get(i).toLowerCase(Locale.ROOT), i);
        }
        boolean partial = format.partialUpdate();
        if (partial && table.keysType() != KeysType.PRIMARY_KEYS) {
            throw analysis("Only primary key table support partial update; " + table.qualifiedName() + " is a "
                    + table.keysType() + " table");
        }
        if (partial && header == null) {
            throw analysis("partial_update needs the columns header naming the columns to write");
        }
        Source[] sources = new Source[table.columns().size()];
        boolean[] provided = partial ? new boolean[sources.length] : null;
        for (int c = 0; c < sources.length; c++) {
            ColumnSchema column = table.columns().get(c);
            String lower = column.name().toLowerCase(Locale.ROOT);
            ColumnsHeader.Expression expression = derived.get(lower);
            if (expression != null) {
                sources[c] = resolve(expression, sourceIndex, column.name());
            } else if (sourceIndex.containsKey(lower)) {
                sources[c] = new FromSource(sourceIndex.get(lower));
            } else if (partial && c < table.keyColumns().size()) {
                throw analysis("partial update must write every key column; missing: " + column.name());
            } else if (partial || column.defaultValue() != null || column.nullable()) {
                // a partial update keeps the stored value; the default fills a new key
                sources[c] = new DefaultValue(column.defaultValue());
            } else {
                throw analysis("Column has no default value. column: " + column.name());
            }
        }
        Source op = null;
        if (primaryKey) {
            ColumnsHeader.Expression expression = derived.get(opLower);
            if (expression != null) {
                op = resolve(expression, sourceIndex, opColumn);
            } else if (sourceIndex.containsKey(opLower)) {
                op = new FromSource(sourceIndex.get(opLower));
            }
        }
        WherePredicate where = format.where() == null ? null : WherePredicate.parse(format.where(), table);
        StreamLoadFormat.MergeType merge = format.mergeType();
        if (merge != StreamLoadFormat.MergeType.APPEND && !primaryKey) {
            throw analysis("merge_type " + merge + " needs a table with a delete sign (" + format.deleteTables()
                    + "); " + table.qualifiedName() + " is a " + table.keysType() + " table");
        }
        WherePredicate deleteWhen = format.deleteCondition() == null ? null
                : WherePredicate.parse(format.deleteCondition(), table);
        if (provided != null) {
            for (int c = 0; c < sources.length; c++) {
                provided[c] = !(sources[c] instanceof DefaultValue);
            }
        }
        return new LoadPlan(table, format.strictMode(), sourceNames, sources, op, opColumn, where,
                merge == StreamLoadFormat.MergeType.DELETE, deleteWhen, provided);
    }

    private static Source resolve(ColumnsHeader.Expression expression, Map<String, Integer> sourceIndex,
                                  String target) throws LoadFormatException {
        if (expression instanceof ColumnsHeader.Constant constant) {
            return new Constant(constant.text());
        }
        String referenced = ((ColumnsHeader.ColumnReference) expression).column();
        Integer index = sourceIndex.get(referenced.toLowerCase(Locale.ROOT));
        if (index == null) {
            throw analysis("Unknown column '" + referenced + "' referenced by '" + target
                    + "' in the columns header; it is not a source column");
        }
        return new FromSource(index);
    }

    private static LoadFormatException analysis(String message) {
        return new LoadFormatException("ANALYSIS_ERROR", message);
    }

    /** Source column names in data order. */
    List<String> sourceNames() {
        return sourceNames;
    }

    /** Index of a source column by name (case-insensitive), or -1. */
    int sourceIndex(String name) {
        Integer index = sourceIndexByExactName.get(name);
        if (index == null) {
            index = sourceIndexByLowerName.get(name.toLowerCase(Locale.ROOT));
        }
        return index == null ? -1 : index;
    }

    /**
     * Builds one row from the source values of one record.
     *
     * @param sourceValues one value per source column: a String, a JsonNode, or null for NULL / absent
     * @return the row, or null when the {@code where} predicate unselects it
     * @throws ValueConversionException with the reason the row is filtered
     */
    RowChange assemble(Object[] sourceValues) throws ValueConversionException {
        List<ColumnSchema> columns = table.columns();
        Object[] values = new Object[columns.size()];
        String[] problems = null;
        for (int c = 0; c < values.length; c++) {
            ColumnSchema column = columns.get(c);
            Object raw = rawValue(columnSources[c], sourceValues);
            Object value = null;
            String conversionProblem = null;
            if (raw != null) {
                try {
                    value = ValueConverter.convert(column, raw);
                } catch (ValueConversionException e) {
                    if (strictMode) {
                        throw e;
                    }
                    conversionProblem = e.getMessage();
                }
            }
            if (conversionProblem != null) {
                if (problems == null) {
                    problems = new String[values.length];
                }
                problems[c] = conversionProblem;
            }
            values[c] = value;
        }
        if (where != null && !where.selects(values)) {
            return null;
        }
        for (int c = 0; c < values.length; c++) {
            ColumnSchema column = columns.get(c);
            if (values[c] == null && !column.nullable() && (provided == null || provided[c])) {
                String problem = problems == null ? null : problems[c];
                throw new ValueConversionException("NULL value in non-nullable column '" + column.name() + "'"
                        + (problem == null ? "" : " (" + problem + ")"));
            }
        }
        boolean delete;
        if (deleteAll) {
            delete = true;
        } else if (deleteWhen != null) {
            delete = deleteWhen.selects(values);
        } else {
            delete = opSource != null && isDelete(rawValue(opSource, sourceValues));
        }
        return new RowChange(values, delete, provided);
    }

    private static Object rawValue(Source source, Object[] sourceValues) {
        if (source instanceof FromSource from) {
            Object value = sourceValues[from.index()];
            if (value instanceof JsonNode node && (node.isNull() || node.isMissingNode())) {
                return null;
            }
            return value;
        }
        if (source instanceof Constant constant) {
            return constant.text();
        }
        return ((DefaultValue) source).text();
    }

    private boolean isDelete(Object raw) throws ValueConversionException {
        if (raw == null) {
            return false;
        }
        String text = (raw instanceof JsonNode node ? node.asText() : (String) raw).trim();
        if (text.equals("0") || text.equalsIgnoreCase("upsert")) {
            return false;
        }
        if (text.equals("1") || text.equalsIgnoreCase("delete")) {
            return true;
        }
        throw new ValueConversionException("Invalid " + opName + " value '" + text
                + "': expected 0 (upsert) or 1 (delete)");
    }
}
