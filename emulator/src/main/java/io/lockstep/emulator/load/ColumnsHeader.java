package io.lockstep.emulator.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The {@code columns} load header: a comma-separated list of source column names and derived columns
 * ({@code name = expression}), e.g. {@code id, tmp_name, name = tmp_name, __op = 'delete'}.
 *
 * <p>Source: StarRocks docs "STREAM LOAD" (columns) and "Load to Primary Key tables" (__op). The emulator reads
 * the expressions a CDC pipeline uses: a reference to another column, a constant (quoted string, number or
 * NULL). Function calls and operators are rejected with NOT_IMPLEMENTED_ERROR naming the expression.
 *
 * @param items the items in header order
 */
public record ColumnsHeader(List<Item> items) {

    public ColumnsHeader {
        items = List.copyOf(items);
    }

    /**
     * One item of the header.
     *
     * @param name       the column name (backquotes removed)
     * @param expression null for a source column, else the value of this derived column
     */
    public record Item(String name, Expression expression) {
        public Item {
            Objects.requireNonNull(name, "name");
        }

        /** True when this item names a column of the data (no {@code = expression}). */
        public boolean isSource() {
            return expression == null;
        }
    }

    /** The value of a derived column. */
    public sealed interface Expression {
    }

    /** {@code name = other}: the value of another (source) column. */
    public record ColumnReference(String column) implements Expression {
    }

    /** {@code name = 'text'}, {@code name = 12}, {@code name = NULL}: a constant; {@code text} null for NULL. */
    public record Constant(String text) implements Expression {
    }

    /**
     * @param header the header value
     * @throws LoadFormatException ANALYSIS_ERROR for a syntax error, NOT_IMPLEMENTED_ERROR for an expression the
     *                             emulator cannot evaluate
     */
    public static ColumnsHeader parse(String header) throws LoadFormatException {
        List<Item> items = new ArrayList<>();
        for (String part : splitTopLevel(header)) {
            String text = part.trim();
            if (text.isEmpty()) {
                throw new LoadFormatException("ANALYSIS_ERROR", "empty item in columns header: '" + header + "'");
            }
            int eq = indexOfTopLevel(text, '=');
            if (eq < 0) {
                items.add(new Item(name(text, header), null));
            } else {
                String name = name(text.substring(0, eq).trim(), header);
                items.add(new Item(name, expression(text.substring(eq + 1).trim(), header)));
            }
        }
        return new ColumnsHeader(items);
    }

    private static String name(String text, String header) throws LoadFormatException {
        if (text.length() >= 2 && text.startsWith("`") && text.endsWith("`")) {
            return text.substring(1, text.length() - 1);
        }
        if (!text.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new LoadFormatException("ANALYSIS_ERROR",
                    "invalid column name '" + text + "' in columns header: '" + header + "'");
        }
        return text;
    }

    private static Expression expression(String text, String header) throws LoadFormatException {
        if (text.isEmpty()) {
            throw new LoadFormatException("ANALYSIS_ERROR", "missing expression after '=' in columns header: '"
                    + header + "'");
        }
        char first = text.charAt(0);
        if ((first == '\'' || first == '"') && text.length() >= 2 && text.charAt(text.length() - 1) == first) {
            String inner = text.substring(1, text.length() - 1);
            if (inner.indexOf(first) < 0) {
                return new Constant(inner);
            }
        }
        if (text.equalsIgnoreCase("NULL")) {
            return new Constant(null);
        }
        if (text.matches("[+-]?[0-9]+(\\.[0-9]+)?")) {
            return new Constant(text);
        }
        if (text.length() >= 2 && text.startsWith("`") && text.endsWith("`")) {
            return new ColumnReference(text.substring(1, text.length() - 1));
        }
        if (text.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            return new ColumnReference(text);
        }
        throw new LoadFormatException("NOT_IMPLEMENTED_ERROR", "the expression '" + text + "' in the columns"
                + " header is not supported by the emulator; it evaluates column references and constants only");
    }

    /** Splits at commas outside quotes and parentheses. */
    private static List<String> splitTopLevel(String header) throws LoadFormatException {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        char quote = 0;
        int start = 0;
        for (int i = 0; i < header.length(); i++) {
            char c = header.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(header.substring(start, i));
                start = i + 1;
            }
        }
        if (quote != 0 || depth != 0) {
            throw new LoadFormatException("ANALYSIS_ERROR",
                    "unbalanced quotes or parentheses in columns header: '" + header + "'");
        }
        parts.add(header.substring(start));
        return parts;
    }

    private static int indexOfTopLevel(String text, char wanted) {
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == wanted) {
                return i;
            }
        }
        return -1;
    }
}
