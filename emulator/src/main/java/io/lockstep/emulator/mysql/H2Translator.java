package io.lockstep.emulator.mysql;

import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.mysql.SqlLexer.Kind;
import io.lockstep.emulator.mysql.SqlLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Translates a StarRocks statement (a query, or the expressions of INSERT/UPDATE/DELETE) to the H2 SQL the store
 * runs, token by token ({@link SqlLexer}):
 *
 * <ul>
 *   <li>Identifier case as StarRocks (FE {@code catalog/Column.java} matches column names case-insensitively;
 *       {@code catalog/Database.java} / {@code server/LocalMetastore.java} look databases and tables up by exact
 *       name): a table reference (after FROM, JOIN, INTO, UPDATE, or a comma in a FROM list) is checked against the
 *       catalog with its exact case ({@code Unknown database} / {@code Unknown table} otherwise) and quoted as is;
 *       table aliases and qualifiers keep their case; column names, plain or back-quoted, are quoted in lower case,
 *       as the store created them; a column alias keeps the case it was written in and references to it match in
 *       any case.</li>
 *   <li>Functions and casts through {@link SqlFunctions} and {@link H2Types}: StarRocks' names and types become
 *       H2's; an unknown function is StarRocks' "No matching function" error.</li>
 *   <li>Literals: strings (single or double quotes, backslash escapes) become H2 strings; {@code @@var} and
 *       {@code @var} become the session's values; {@code INTERVAL n unit} becomes H2's interval literal;
 *       {@code LIMIT a, b} becomes {@code LIMIT b OFFSET a}; {@code DATETIME 'x'} becomes {@code TIMESTAMP 'x'}.</li>
 *   <li>{@code /} divides in DOUBLE (StarRocks never divides integers as integers; {@code DIV} does).</li>
 * </ul>
 * One instance per statement; not thread-safe.
 */
final class H2Translator {
    /** Words that are never identifiers and never start a function call. */
    private static final Set<String> KEYWORDS = Set.of("SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "IN", "IS",
            "NULL", "AS", "ON", "JOIN", "LEFT", "RIGHT", "INNER", "OUTER", "CROSS", "FULL", "GROUP", "BY", "ORDER",
            "HAVING", "LIMIT", "OFFSET", "UNION", "ALL", "DISTINCT", "CASE", "WHEN", "THEN", "ELSE", "END",
            "BETWEEN", "LIKE", "EXISTS", "ASC", "DESC", "WITH", "TRUE", "FALSE", "OVER", "PARTITION", "ROWS",
            "RANGE", "PRECEDING", "FOLLOWING", "UNBOUNDED", "CURRENT", "ROW", "USING", "SET", "VALUES", "INTO",
            "UPDATE", "DELETE", "INSERT", "NULLS", "FIRST", "LAST", "EXCEPT", "INTERSECT", "ANY", "SOME", "ESCAPE",
            "SEMI", "ANTI", "RECURSIVE", "REGEXP", "RLIKE", "XOR");
    /** Words after which a name is a table reference. */
    private static final Set<String> TABLE_INTRODUCERS = Set.of("FROM", "JOIN", "INTO", "UPDATE");
    /** Words that end a FROM list. */
    private static final Set<String> FROM_ENDERS = Set.of("WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "UNION",
            "ON", "USING", "SET", "VALUES", "SELECT", "EXCEPT", "INTERSECT", "WINDOW");

    /** Words after a table reference that are not its alias. */
    private static final Set<String> SKIPPED_AFTER_TABLE = Set.of("NATURAL", "STRAIGHT_JOIN", "WINDOW", "FOR",
            "TABLET", "LATERAL");

    private final Catalog catalog;
    private final SystemVariables variables;
    private final Map<String, Object> userVariables;
    private final SqlFunctions.Context context;
    private final String sql;
    private final List<Token> tokens;
    /** CTE names, column aliases and the columns of the tables named. */
    private final StatementNames names;
    /** Tables referenced: database (null = current) and table, as written. */
    private final List<String[]> tableReferences = new ArrayList<>();

    H2Translator(Catalog catalog, SystemVariables variables, Map<String, Object> userVariables,
                 SqlFunctions.Context context, String sql) {
        this.catalog = catalog;
        this.variables = variables;
        this.userVariables = userVariables;
        this.context = context;
        this.sql = sql;
        this.tokens = SqlLexer.tokens(sql).stream().filter(t -> t.kind() != Kind.SPACE).toList();
        this.names = StatementNames.of(tokens, catalog, context.database());
    }

    /**
     * The whole statement in H2 SQL.
     *
     * @throws SqlError for unknown databases, tables or functions, and malformed statements
     */
    String translate() {
        if (tokens.isEmpty() || !tokens.get(0).is("SELECT")) {
            return range(0, tokens.size());
        }
        return labelledSelect();
    }

    /**
     * A statement starting with SELECT, with every select item that has no alias labelled as the client wrote it
     * (MySQL's and StarRocks' column label), so that no label shows the store's rewriting: {@code if(a, 1, 2)} is
     * labelled {@code if(a, 1, 2)}, {@code o.Id} is labelled {@code Id}.
     */
    private String labelledSelect() {
        int start = 1;
        if (start < tokens.size() && (tokens.get(start).is("DISTINCT") || tokens.get(start).is("ALL"))) {
            start++;
        }
        int end = start;
        int depth = 0;
        for (; end < tokens.size(); end++) {
            Token t = tokens.get(end);
            depth += t.isSymbol("(") ? 1 : t.isSymbol(")") ? -1 : 0;
            if (depth == 0 && t.kind() == Kind.WORD && (t.is("FROM") || FROM_ENDERS.contains(upper(t))
                    || t.is("UNION") || t.is("INTO"))) {
                break;
            }
        }
        StringBuilder out = new StringBuilder(range(0, start)).append(' ');
        List<int[]> items = splitArgs(start, end);
        for (int k = 0; k < items.size(); k++) {
            int[] item = items.get(k);
            out.append(k > 0 ? ", " : "").append(range(item[0], item[1]));
            String label = label(item[0], item[1]);
            if (label != null) {
                out.append(" AS ").append(quote(label));
            }
        }
        return out.append(' ').append(range(end, tokens.size())).toString().strip();
    }

    /** The label of a select item without an alias: its text as written (a column: its name); null if it has one. */
    private String label(int from, int to) {
        if (to <= from) {
            return null;
        }
        Token last = tokens.get(to - 1);
        if (last.isSymbol("*") || to - from >= 2 && last.isName() && !tokens.get(to - 2).isSymbol(".")
                && !KEYWORDS.contains(upper(last)) && !endsWithIntervalUnit(from, to)) {
            return null; // * / t.* / an alias (AS x or a bare x)
        }
        if (last.isName() && (to - from == 1 || tokens.get(to - 2).isSymbol("."))) {
            return last.value(); // a column, qualified or not: its name as written
        }
        String text = sql.substring(tokens.get(from).start(), last.end()).strip();
        return text.length() > 250 ? text.substring(0, 250) : text;
    }

    /** Whether tokens [from, to) end with the unit of an {@code INTERVAL n unit} (a word that is not an alias). */
    private boolean endsWithIntervalUnit(int from, int to) {
        for (int j = from; j < to - 1; j++) {
            if (tokens.get(j).is("INTERVAL") && intervalEnd(j, to) == to - 1) {
                return true;
            }
        }
        return false;
    }

    /** The tables the statement references ([database or null, table]), known once {@link #translate} ran. */
    List<String[]> tableReferences() {
        return tableReferences;
    }

    /** Tokens [from, to) in H2 SQL. */
    private String range(int from, int to) {
        StringBuilder out = new StringBuilder();
        boolean inFromList = false;
        for (int i = from; i < to; i++) {
            Token t = tokens.get(i);
            Token previous = i > from ? tokens.get(i - 1) : null;
            if (t.kind() == Kind.WORD && (TABLE_INTRODUCERS.contains(upper(t)))) {
                inFromList = t.is("FROM") || t.is("UPDATE");
            } else if (t.kind() == Kind.WORD && FROM_ENDERS.contains(upper(t))) {
                inFromList = false;
            }
            boolean tablePosition = t.isName() && previous != null && !KEYWORDS.contains(upper(t))
                    && (previous.kind() == Kind.WORD && TABLE_INTRODUCERS.contains(upper(previous))
                    || inFromList && previous.isSymbol(","));
            if (tablePosition && previous.is("FROM") && i + 1 < to && tokens.get(i + 1).isSymbol("(")
                    && !names.cteNames().contains(t.value())) {
                tablePosition = false; // FROM a table function: not supported, let it fail as a function
            }
            if (tablePosition) {
                i = table(out, i, to);
                continue;
            }
            switch (t.kind()) {
                case STRING -> out.append(h2String(t.value()));
                case NUMBER -> out.append(t.text());
                case PARAM -> throw SqlErrors.syntax(sql, offset(t), "Unexpected input '?' outside a prepared "
                        + "statement");
                case VARIABLE -> out.append(variable(t.text()));
                case SYMBOL -> out.append(symbol(t));
                case QUOTED_NAME -> i = name(out, i, to);
                case WORD -> i = word(out, i, to);
                default -> out.append(' ');
            }
            out.append(' ');
        }
        return out.toString().strip();
    }

    private String symbol(Token t) {
        return switch (t.text()) {
            case "&&" -> "AND";
            case "||" -> "OR";
            case "!=" -> "<>";
            // StarRocks' '/' is never integer division (FE sql/analyzer/ExpressionAnalyzer.java: DOUBLE, or DECIMAL
            // for decimal operands); H2 divides integers as integers. Multiplying the left-hand term by a DOUBLE 1
            // (same precedence, left-associative) makes H2 divide in DOUBLE; decimal operands get DOUBLE too.
            case "/" -> "* CAST(1 AS DOUBLE PRECISION) /";
            default -> t.text();
        };
    }

    /** A word: keyword, function call, typed literal, INTERVAL, LIMIT, or a name. Returns the last token used. */
    private int word(StringBuilder out, int i, int to) {
        Token t = tokens.get(i);
        String upper = upper(t);
        boolean call = i + 1 < to && tokens.get(i + 1).isSymbol("(");
        if (call && !KEYWORDS.contains(upper)) {
            return call(out, i, to);
        }
        if (upper.equals("DIV")) {
            out.append('/');
            return i;
        }
        if (upper.equals("INTERVAL")) {
            int unitIndex = intervalEnd(i, to);
            out.append("INTERVAL '").append(range(i + 1, unitIndex).replace("'", "")).append("' ")
                    .append(SqlFunctions.intervalUnit(tokens.get(unitIndex).text()));
            return unitIndex;
        }
        if (upper.equals("LIMIT") && i + 3 < to && tokens.get(i + 1).kind() == Kind.NUMBER
                && tokens.get(i + 2).isSymbol(",") && tokens.get(i + 3).kind() == Kind.NUMBER) {
            out.append("LIMIT ").append(tokens.get(i + 3).text()).append(" OFFSET ").append(tokens.get(i + 1).text());
            return i + 3;
        }
        if ((upper.equals("DATE") || upper.equals("DATETIME") || upper.equals("TIMESTAMP")) && i + 1 < to
                && tokens.get(i + 1).kind() == Kind.STRING) {
            out.append(upper.equals("DATE") ? "DATE " : "TIMESTAMP ").append(h2String(tokens.get(i + 1).value()));
            return i + 1;
        }
        if (KEYWORDS.contains(upper)) {
            out.append(upper);
            return i;
        }
        if (SqlFunctions.isNiladic(t.text())) {
            out.append(SqlFunctions.translate(t.text(), List.of(), context));
            return i;
        }
        return name(out, i, to);
    }

    /** The token index of the unit ending {@code INTERVAL expr unit}. */
    private int intervalEnd(int i, int to) {
        int depth = 0;
        for (int j = i + 1; j < to; j++) {
            Token t = tokens.get(j);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            } else if (depth == 0 && t.kind() == Kind.WORD && j > i + 1) {
                return j;
            }
        }
        throw SqlErrors.syntax(sql, offset(tokens.get(i)), "INTERVAL needs an amount and a unit");
    }

    /**
     * A column reference, qualified name or alias, [db.]table.column: qualifiers keep their case, the column is lower
     * case, an alias keeps the case it was defined with.
     */
    private int name(StringBuilder out, int i, int to) {
        List<String> parts = new ArrayList<>();
        parts.add(tokens.get(i).value());
        int j = i;
        while (j + 2 < to && tokens.get(j + 1).isSymbol(".") && (tokens.get(j + 2).isName()
                || tokens.get(j + 2).isSymbol("*"))) {
            parts.add(tokens.get(j + 2).isSymbol("*") ? "*" : tokens.get(j + 2).value());
            j += 2;
        }
        Token previous = i > 0 ? tokens.get(i - 1) : null;
        boolean definesAlias = previous != null && previous.is("AS");
        for (int p = 0; p < parts.size(); p++) {
            if (p > 0) {
                out.append('.');
            }
            String part = parts.get(p);
            boolean last = p == parts.size() - 1;
            if (part.equals("*")) {
                out.append('*');
            } else if (!last || definesAlias) {
                out.append(H2Translator.quote(part));
            } else if (parts.size() == 1 && names.columnAliases().containsKey(part.toLowerCase(Locale.ROOT))
                    && !names.knownColumns().contains(part.toLowerCase(Locale.ROOT))) {
                out.append(quote(names.columnAliases().get(part.toLowerCase(Locale.ROOT))));
            } else {
                out.append(quote(part.toLowerCase(Locale.ROOT)));
            }
        }
        return j;
    }

    /** A table reference [db.]table [[AS] alias], checked against the catalog with exact case. */
    private int table(StringBuilder out, int i, int to) {
        String first = tokens.get(i).value();
        String db = null;
        String table = first;
        int j = i;
        if (j + 2 < to && tokens.get(j + 1).isSymbol(".") && tokens.get(j + 2).isName()) {
            db = first;
            table = tokens.get(j + 2).value();
            j += 2;
        }
        if (db == null && names.cteNames().contains(table)) {
            out.append(quote(table)).append(' ');
        } else if (db != null && db.equalsIgnoreCase("information_schema")) {
            out.append("INFORMATION_SCHEMA.").append(table.toUpperCase(Locale.ROOT)).append(' ');
        } else {
            String database = db != null ? db : context.database();
            if (database == null) {
                throw new SqlError(SqlError.NO_DB, "3D000", "No database selected");
            }
            if (catalog.database(database).isEmpty()) {
                throw SqlErrors.unknownDatabase(database);
            }
            if (catalog.table(database, table).isEmpty()) {
                throw SqlErrors.unknownTable(database, table);
            }
            tableReferences.add(new String[] {database, table});
            out.append(quote(database)).append('.').append(quote(table)).append(' ');
        }
        if (j + 2 < to && tokens.get(j + 1).is("AS") && tokens.get(j + 2).isName()) {
            out.append("AS ").append(quote(tokens.get(j + 2).value())).append(' ');
            return j + 2;
        }
        if (j + 1 < to && tokens.get(j + 1).isName() && !KEYWORDS.contains(upper(tokens.get(j + 1)))
                && !SKIPPED_AFTER_TABLE.contains(upper(tokens.get(j + 1)))) {
            out.append(quote(tokens.get(j + 1).value())).append(' ');
            return j + 1;
        }
        return j;
    }

    /** A call name(args): CAST, EXTRACT, or a function of {@link SqlFunctions}. */
    private int call(StringBuilder out, int i, int to) {
        String name = tokens.get(i).text();
        int close = matching(i + 1, to);
        List<int[]> args = splitArgs(i + 2, close);
        if (name.equalsIgnoreCase("CAST")) {
            out.append(cast(i + 2, close));
        } else if (name.equalsIgnoreCase("EXTRACT") && close - (i + 2) >= 3 && tokens.get(i + 3).is("FROM")) {
            out.append("EXTRACT(").append(SqlFunctions.intervalUnit(tokens.get(i + 2).text())).append(" FROM ")
                    .append(range(i + 4, close)).append(')');
        } else {
            List<SqlFunctions.Arg> translated = new ArrayList<>();
            for (int[] arg : args) {
                translated.add(arg(arg[0], arg[1]));
            }
            out.append(SqlFunctions.translate(name, translated, context));
        }
        if (close + 1 < to && tokens.get(close + 1).is("OVER")) {
            return close; // the window clause follows as plain tokens
        }
        return close;
    }

    private SqlFunctions.Arg arg(int from, int to) {
        if (to - from == 1) {
            Token t = tokens.get(from);
            if (t.kind() == Kind.STRING) {
                return new SqlFunctions.Arg(h2String(t.value()), t.value(), null, null, "varchar");
            }
            if (t.kind() == Kind.WORD && !KEYWORDS.contains(upper(t)) && !SqlFunctions.isNiladic(t.text())) {
                return new SqlFunctions.Arg(range(from, to), null, t.text(), null, null);
            }
            if (t.kind() == Kind.NUMBER) {
                return new SqlFunctions.Arg(t.text(), null, null, null, literalType(t.text()));
            }
        }
        if (to - from >= 3 && tokens.get(from).is("INTERVAL")) {
            String unit = SqlFunctions.intervalUnit(tokens.get(to - 1).text());
            return new SqlFunctions.Arg(range(from + 1, to - 1), null, null, unit, null);
        }
        if (to - from == 1 && tokens.get(from).is("NULL")) {
            return new SqlFunctions.Arg("NULL", null, null, null, "boolean");
        }
        return new SqlFunctions.Arg(range(from, to), null, null, null, null);
    }

    private static String literalType(String number) {
        if (number.contains(".") || number.contains("e") || number.contains("E")) {
            return "decimal";
        }
        try {
            long v = Long.parseLong(number);
            return v <= Byte.MAX_VALUE ? "tinyint(4)" : v <= Short.MAX_VALUE ? "smallint(6)"
                    : v <= Integer.MAX_VALUE ? "int(11)" : "bigint(20)";
        } catch (NumberFormatException e) {
            return "largeint(40)";
        }
    }

    /** CAST(expr AS type) with StarRocks' type names mapped to H2's. */
    private String cast(int from, int to) {
        int as = -1;
        int depth = 0;
        for (int j = from; j < to; j++) {
            Token t = tokens.get(j);
            depth += t.isSymbol("(") ? 1 : t.isSymbol(")") ? -1 : 0;
            if (depth == 0 && t.is("AS")) {
                as = j;
            }
        }
        if (as < 0 || as + 1 >= to) {
            throw SqlErrors.syntax(sql, offset(tokens.get(from)), "CAST needs 'AS type'");
        }
        String type = castType(as + 1, to);
        String value = range(from, as);
        // H2 reads no time part in a DATE string; StarRocks drops it
        return type.equals("DATE") ? "CAST(CAST(" + value + " AS TIMESTAMP) AS DATE)"
                : "CAST(" + value + " AS " + type + ")";
    }

    /** The H2 type of the CAST target written in tokens [from, to). */
    private String castType(int from, int to) {
        List<String> numbers = new ArrayList<>();
        for (int j = from + 1; j < to; j++) {
            if (tokens.get(j).kind() == Kind.NUMBER) {
                numbers.add(tokens.get(j).text());
            }
        }
        return H2Types.castTarget(tokens.get(from).text(), numbers);
    }

    private int matching(int open, int to) {
        int depth = 0;
        for (int j = open; j < to; j++) {
            if (tokens.get(j).isSymbol("(")) {
                depth++;
            } else if (tokens.get(j).isSymbol(")") && --depth == 0) {
                return j;
            }
        }
        throw SqlErrors.syntax(sql, offset(tokens.get(open)), "Unexpected input '<EOF>', a ')' is missing");
    }

    /** The comma-separated parts of {@code tokens[from, to)}; none for an empty range (no arguments). */
    private List<int[]> splitArgs(int from, int to) {
        return from >= to ? new ArrayList<>() : SqlLexer.splitAtTopLevelCommas(tokens, from, to);
    }

    private String variable(String text) {
        if (text.startsWith("@@")) {
            return literal(variables.get(text.substring(2)));
        }
        return literal(userVariables.get(text.substring(1).toLowerCase(Locale.ROOT)));
    }

    static String literal(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof Boolean b) {
            return b ? "TRUE" : "FALSE";
        }
        if (value instanceof Number) {
            return value instanceof java.math.BigDecimal d ? d.toPlainString() : value.toString();
        }
        return h2String(value.toString());
    }

    static String h2String(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    private static String upper(Token t) {
        return t.text().toUpperCase(Locale.ROOT);
    }

    private static int offset(Token t) {
        return t.start();
    }
}
