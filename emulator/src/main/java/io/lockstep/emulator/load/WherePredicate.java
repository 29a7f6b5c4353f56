package io.lockstep.emulator.load;

import io.lockstep.emulator.catalog.ColumnSchema;
import io.lockstep.emulator.catalog.TableSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code where} load header: rows for which it is not TRUE are "unselected" (counted in
 * {@code NumberUnselectedRows}, not filtered; docs/protocol.md#data-formats-and-filtered-rows). Evaluated on the
 * converted row, before the NOT NULL check, as the BE's scan node filters before its table sink validates.
 *
 * <p>Subset: comparisons {@code = != <> < <= > >=} between a table column and a constant (quoted string, number,
 * NULL) or another column, {@code IS [NOT] NULL}, {@code [NOT] IN (constants)}, {@code [NOT] BETWEEN a AND b},
 * {@code AND}, {@code OR}, {@code NOT} and parentheses, with SQL's three-valued logic (a comparison with NULL is
 * unknown, so the row is unselected). Constants are converted to the column's type; one that does not convert
 * fails the plan. Function calls and arithmetic fail with NOT_IMPLEMENTED_ERROR. Immutable.
 */
final class WherePredicate {
    private final Node root;

    private WherePredicate(Node root) {
        this.root = root;
    }

    /** True when the row (values in table column order) is selected. */
    boolean selects(Object[] values) {
        return root.eval(values) == Boolean.TRUE;
    }

    /**
     * @throws LoadFormatException ANALYSIS_ERROR for a syntax error, an unknown column or a constant that does not
     *                             fit its column; NOT_IMPLEMENTED_ERROR for expressions outside the subset
     */
    static WherePredicate parse(String text, TableSchema table) throws LoadFormatException {
        WhereParser parser = new WhereParser(WhereLexer.tokens(text), text, table);
        Node root = parser.orExpr();
        parser.expectEnd();
        return new WherePredicate(root);
    }

    /** A boolean expression node: eval gives TRUE, FALSE or null (unknown). */
    interface Node {
        Boolean eval(Object[] values);
    }

    /** A value: a column's value or a constant. */
    interface Operand {
        Object value(Object[] values);
    }

    static Boolean and(Boolean a, Boolean b) {
        if (a == Boolean.FALSE || b == Boolean.FALSE) {
            return Boolean.FALSE;
        }
        return a == null || b == null ? null : Boolean.TRUE;
    }

    static Boolean or(Boolean a, Boolean b) {
        if (a == Boolean.TRUE || b == Boolean.TRUE) {
            return Boolean.TRUE;
        }
        return a == null || b == null ? null : Boolean.FALSE;
    }

    static Boolean not(Boolean a) {
        return a == null ? null : !a;
    }

    /** Compares two non-null values of one column type; numbers across Java types compare by value. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static int compare(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return decimal(x).compareTo(decimal(y));
        }
        if (a instanceof Comparable ca && a.getClass() == b.getClass()) {
            return ca.compareTo(b);
        }
        return a.toString().compareTo(b.toString());
    }

    private static BigDecimal decimal(Number n) {
        if (n instanceof BigDecimal d) {
            return d;
        }
        if (n instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        if (n instanceof Float || n instanceof Double) {
            return BigDecimal.valueOf(n.doubleValue());
        }
        return BigDecimal.valueOf(n.longValue());
    }

    /** Recursive-descent parser over the lexer's tokens. */
    private static final class WhereParser {
        private final List<String> tokens;
        private final String text;
        private final TableSchema table;
        private int pos;

        WhereParser(List<String> tokens, String text, TableSchema table) {
            this.tokens = tokens;
            this.text = text;
            this.table = table;
        }

        Node orExpr() throws LoadFormatException {
            Node left = andExpr();
            while (acceptWord("OR")) {
                Node l = left;
                Node r = andExpr();
                left = v -> or(l.eval(v), r.eval(v));
            }
            return left;
        }

        private Node andExpr() throws LoadFormatException {
            Node left = notExpr();
            while (acceptWord("AND")) {
                Node l = left;
                Node r = notExpr();
                left = v -> and(l.eval(v), r.eval(v));
            }
            return left;
        }

        private Node notExpr() throws LoadFormatException {
            if (acceptWord("NOT")) {
                Node inner = notExpr();
                return v -> not(inner.eval(v));
            }
            if (accept("(")) {
                Node inner = orExpr();
                expect(")");
                return inner;
            }
            return predicate();
        }

        private Node predicate() throws LoadFormatException {
            String name = next("a column name");
            if (pos < tokens.size() && tokens.get(pos).equals("(")) {
                throw new LoadFormatException("NOT_IMPLEMENTED_ERROR", "where '" + text
                        + "' is not supported by the emulator: function calls are not evaluated");
            }
            int index = table.columnIndex(unquote(name));
            if (index < 0 || !isName(name)) {
                throw new LoadFormatException(isName(name) ? "ANALYSIS_ERROR" : "NOT_IMPLEMENTED_ERROR",
                        isName(name) ? "Unknown column '" + unquote(name) + "' in where: " + text
                                : "where '" + text + "' is not supported by the emulator: each condition must start"
                                + " with a column name");
            }
            ColumnSchema column = table.columns().get(index);
            Operand left = v -> v[index];
            if (acceptWord("IS")) {
                boolean negated = acceptWord("NOT");
                expectWord("NULL");
                return v -> (left.value(v) == null) != negated;
            }
            boolean negated = acceptWord("NOT");
            if (acceptWord("IN")) {
                expect("(");
                List<Operand> options = new ArrayList<>();
                do {
                    options.add(operand(column));
                } while (accept(","));
                expect(")");
                return v -> {
                    Boolean found = Boolean.FALSE;
                    for (Operand option : options) {
                        found = or(found, equal(left.value(v), option.value(v)));
                    }
                    return negated ? not(found) : found;
                };
            }
            if (acceptWord("BETWEEN")) {
                Operand low = operand(column);
                expectWord("AND");
                Operand high = operand(column);
                return v -> {
                    Object value = left.value(v);
                    Boolean inside = and(cmp(value, low.value(v), ">="), cmp(value, high.value(v), "<="));
                    return negated ? not(inside) : inside;
                };
            }
            if (negated) {
                throw syntax("expected IN or BETWEEN after NOT");
            }
            String op = next("a comparison operator");
            if (!List.of("=", "!=", "<>", "<", "<=", ">", ">=").contains(op)) {
                throw syntax("unexpected '" + op + "'; expected a comparison operator, IS, IN or BETWEEN");
            }
            Operand right = operand(column);
            return v -> cmp(left.value(v), right.value(v), op);
        }

        private Operand operand(ColumnSchema column) throws LoadFormatException {
            String token = next("a constant or column");
            if (token.equalsIgnoreCase("NULL")) {
                return v -> null;
            }
            String constant = null;
            if (token.startsWith("'") || token.startsWith("\"")) {
                constant = token.substring(1, token.length() - 1);
            } else if (token.matches("[+-]?[0-9]+(\\.[0-9]+)?")) {
                constant = token;
            }
            if (constant != null) {
                try {
                    Object value = ValueConverter.convert(column, constant);
                    return v -> value;
                } catch (ValueConversionException e) {
                    throw new LoadFormatException("ANALYSIS_ERROR", "where: " + e.getMessage());
                }
            }
            int index = isName(token) ? table.columnIndex(unquote(token)) : -1;
            if (index < 0) {
                throw new LoadFormatException(isName(token) ? "ANALYSIS_ERROR" : "NOT_IMPLEMENTED_ERROR",
                        isName(token) ? "Unknown column '" + unquote(token) + "' in where: " + text
                                : "'" + token + "' in where is not supported by the emulator");
            }
            return v -> v[index];
        }

        private static Boolean equal(Object a, Object b) {
            return a == null || b == null ? null : compare(a, b) == 0;
        }

        private static Boolean cmp(Object a, Object b, String op) {
            if (a == null || b == null) {
                return null;
            }
            int c = compare(a, b);
            return switch (op) {
                case "=" -> c == 0;
                case "!=", "<>" -> c != 0;
                case "<" -> c < 0;
                case "<=" -> c <= 0;
                case ">" -> c > 0;
                default -> c >= 0;
            };
        }

        private static boolean isName(String token) {
            return token.startsWith("`") || Character.isLetter(token.charAt(0)) || token.charAt(0) == '_';
        }

        private static String unquote(String token) {
            return token.startsWith("`") ? token.substring(1, token.length() - 1) : token;
        }

        void expectEnd() throws LoadFormatException {
            if (pos < tokens.size()) {
                String token = tokens.get(pos);
                if (token.equals("(")) {
                    throw new LoadFormatException("NOT_IMPLEMENTED_ERROR", "where '" + text
                            + "' is not supported by the emulator: function calls are not evaluated");
                }
                throw syntax("unexpected '" + token + "'");
            }
        }

        private String next(String what) throws LoadFormatException {
            if (pos >= tokens.size()) {
                throw syntax("expected " + what + " at the end");
            }
            return tokens.get(pos++);
        }

        private boolean accept(String symbol) {
            if (pos < tokens.size() && tokens.get(pos).equals(symbol)) {
                pos++;
                return true;
            }
            return false;
        }

        private boolean acceptWord(String word) {
            if (pos < tokens.size() && tokens.get(pos).toUpperCase(Locale.ROOT).equals(word)) {
                pos++;
                return true;
            }
            return false;
        }

        private void expect(String symbol) throws LoadFormatException {
            if (!accept(symbol)) {
                throw syntax("expected '" + symbol + "'");
            }
        }

        private void expectWord(String word) throws LoadFormatException {
            if (!acceptWord(word)) {
                throw syntax("expected " + word);
            }
        }

        private LoadFormatException syntax(String problem) {
            return new LoadFormatException("ANALYSIS_ERROR", "invalid where '" + text + "': " + problem);
        }
    }
}
