package io.lockstep.emulator.catalog;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses the emulator's StarRocks DDL subset, one statement at a time.
 *
 * <p>Supported: {@code CREATE DATABASE [IF NOT EXISTS] db}; {@code USE db};
 * {@code CREATE TABLE [IF NOT EXISTS] [db.]t (col TYPE [NULL|NOT NULL] [DEFAULT v] [COMMENT 's'], ...)
 * [ENGINE = OLAP] PRIMARY KEY|DUPLICATE KEY (cols) [COMMENT 's'] [PARTITION BY ... (skipped)]
 * [DISTRIBUTED BY HASH(cols) [BUCKETS n] | DISTRIBUTED BY RANDOM [BUCKETS n]] [ORDER BY (cols)]
 * [PROPERTIES ("k" = "v", ...)]}. Comments {@code --}, {@code #} and {@code /* *}{@code /}; names may be
 * backquoted. Types: see {@link ColumnTypeParser}. Column nullability follows StarRocks: columns are nullable
 * unless declared NOT NULL, except PRIMARY KEY columns, which are NOT NULL by default and may not be declared NULL.
 *
 * <p>Every error names the statement number, the line and the problem:
 * {@code DDL statement 2 (line 7): unknown column type 'INTEGR'}. Not thread-safe; use one parser per text.
 */
public final class DdlParser {
    private final List<DdlToken> tokens;
    private int pos;
    private int statementNumber;
    private int statementLine;

    /** A parser over the given DDL text; call {@link #next()} until it returns null. */
    public DdlParser(String ddl) {
        this.tokens = DdlTokenizer.tokenize(ddl);
    }

    /**
     * Parses a whole DDL text.
     *
     * @return the statements in order
     * @throws DdlException for the first statement that does not parse
     */
    public static List<DdlStatement> parseAll(String ddl) throws DdlException {
        DdlParser parser = new DdlParser(ddl);
        List<DdlStatement> statements = new ArrayList<>();
        for (DdlStatement s = parser.next(); s != null; s = parser.next()) {
            statements.add(s);
        }
        return statements;
    }

    /**
     * Parses the next statement.
     *
     * @return the statement, or null at the end of the text
     * @throws DdlException naming the statement number, line and problem
     */
    public DdlStatement next() throws DdlException {
        while (peek().isSymbol(";")) {
            pos++;
        }
        if (peek().kind() == DdlToken.Kind.END) {
            return null;
        }
        statementNumber++;
        statementLine = peek().line();
        DdlStatement statement;
        if (peek().isKeyword("USE")) {
            pos++;
            statement = new DdlStatement.UseDatabase(statementNumber, statementLine, identifier("database name"));
        } else if (peek().isKeyword("CREATE")) {
            pos++;
            if (accept("DATABASE") || accept("SCHEMA")) {
                boolean ifNotExists = ifNotExists();
                statement = new DdlStatement.CreateDatabase(statementNumber, statementLine,
                        identifier("database name"), ifNotExists);
            } else if (accept("TABLE")) {
                statement = createTable();
            } else {
                throw error("only CREATE DATABASE and CREATE TABLE are supported, found " + peek().describe());
            }
        } else {
            throw error("unsupported statement starting with " + peek().describe()
                    + "; supported: CREATE DATABASE, CREATE TABLE, USE");
        }
        DdlToken end = peek();
        if (!end.isSymbol(";") && end.kind() != DdlToken.Kind.END) {
            throw error("expected ';' or end of input, found " + end.describe());
        }
        return statement;
    }

    private DdlStatement.CreateTable createTable() throws DdlException {
        boolean ifNotExists = ifNotExists();
        String first = identifier("table name");
        String database = null;
        String name = first;
        if (peek().isSymbol(".")) {
            pos++;
            database = first;
            name = identifier("table name");
        }
        expectSymbol("(");
        List<ColumnDraft> drafts = new ArrayList<>();
        do {
            if (peek().isKeyword("INDEX")) {
                skipIndexDefinition();
                continue;
            }
            drafts.add(columnDefinition());
        } while (acceptSymbol(","));
        expectSymbol(")");
        if (accept("ENGINE")) {
            expectSymbol("=");
            String engine = identifier("engine name");
            if (!engine.equalsIgnoreCase("OLAP")) {
                throw error("ENGINE = " + engine + " is not supported by the emulator; only OLAP tables are");
            }
        }
        KeysType keysType = keysType();
        List<String> keyColumns = nameList("key column");
        List<String> distribution = List.of();
        int buckets = -1;
        Map<String, String> properties = new LinkedHashMap<>();
        List<ColumnSchema> columns = resolveNullability(drafts, keysType, keyColumns);
        String violation = TableRules.violation(keysType, columns, keyColumns);
        if (violation != null) {
            throw error(violation);
        }
        while (!peek().isSymbol(";") && peek().kind() != DdlToken.Kind.END) {
            if (accept("COMMENT")) {
                string("table comment");
            } else if (accept("PARTITION")) {
                expectKeyword("BY");
                skipPartitionClause();
            } else if (accept("DISTRIBUTED")) {
                expectKeyword("BY");
                if (accept("HASH")) {
                    distribution = nameList("distribution column");
                    for (String column : distribution) {
                        requireColumn(columns, column, "distribution column");
                    }
                } else if (!accept("RANDOM")) {
                    throw error("expected HASH(...) or RANDOM after DISTRIBUTED BY, found " + peek().describe());
                }
                if (accept("BUCKETS")) {
                    buckets = positiveInt("bucket number");
                }
            } else if (accept("ORDER")) {
                expectKeyword("BY");
                for (String column : nameList("ORDER BY column")) {
                    requireColumn(columns, column, "ORDER BY column");
                }
            } else if (accept("PROPERTIES")) {
                properties.putAll(properties());
            } else {
                throw error("unexpected " + peek().describe() + " after the key definition; expected COMMENT,"
                        + " PARTITION BY, DISTRIBUTED BY, ORDER BY or PROPERTIES");
            }
        }
        return new DdlStatement.CreateTable(statementNumber, statementLine, database, name, ifNotExists, keysType,
                columns, keyColumns, distribution, buckets, properties);
    }

    private KeysType keysType() throws DdlException {
        DdlToken token = peek();
        if (accept("PRIMARY")) {
            expectKeyword("KEY");
            return KeysType.PRIMARY_KEYS;
        }
        if (accept("DUPLICATE")) {
            expectKeyword("KEY");
            return KeysType.DUPLICATE_KEYS;
        }
        if (token.isKeyword("AGGREGATE") || token.isKeyword("UNIQUE")) {
            throw error(token.text().toUpperCase() + " KEY tables are not supported by the emulator;"
                    + " use PRIMARY KEY or DUPLICATE KEY");
        }
        throw error("expected PRIMARY KEY (...) or DUPLICATE KEY (...) after the column list, found "
                + token.describe());
    }

    /** A column as written, before the key list tells whether an undeclared nullability means NULL. */
    private record ColumnDraft(String name, ColumnType type, Boolean declaredNullable, String defaultValue,
                               int line) {
    }

    private ColumnDraft columnDefinition() throws DdlException {
        int line = peek().line();
        String name = identifier("column name");
        ColumnType type = ColumnTypeParser.parse(this, name);
        Boolean nullable = null;
        String defaultValue = null;
        while (true) {
            DdlToken token = peek();
            if (accept("NOT")) {
                expectKeyword("NULL");
                nullable = Boolean.FALSE;
            } else if (accept("NULL")) {
                nullable = Boolean.TRUE;
            } else if (accept("DEFAULT")) {
                defaultValue = defaultValue(name);
            } else if (accept("COMMENT")) {
                string("column comment");
            } else if (token.isKeyword("AUTO_INCREMENT") || token.isKeyword("AS")) {
                throw error(token.text().toUpperCase() + " columns are not supported by the emulator (column '"
                        + name + "')");
            } else if (token.kind() == DdlToken.Kind.IDENTIFIER && isAggregate(token.text())) {
                throw error("aggregate column '" + name + "' (" + token.text().toUpperCase()
                        + ") is not supported by the emulator");
            } else {
                return new ColumnDraft(name, type, nullable, defaultValue, line);
            }
        }
    }

    private String defaultValue(String column) throws DdlException {
        DdlToken token = peek();
        if (token.kind() == DdlToken.Kind.STRING || token.kind() == DdlToken.Kind.NUMBER) {
            pos++;
            return token.text();
        }
        if (token.isSymbol("-") || token.isSymbol("+")) {
            pos++;
            DdlToken number = peek();
            if (number.kind() != DdlToken.Kind.NUMBER) {
                throw error("expected a number after '" + token.text() + "' in DEFAULT of column '" + column + "'");
            }
            pos++;
            return token.isSymbol("-") ? "-" + number.text() : number.text();
        }
        if (accept("NULL")) {
            return null;
        }
        throw error("DEFAULT of column '" + column + "' must be a quoted literal, a number or NULL, found "
                + token.describe() + " (DEFAULT CURRENT_TIMESTAMP and expressions are not supported by the emulator)");
    }

    private List<ColumnSchema> resolveNullability(List<ColumnDraft> drafts, KeysType keysType,
                                                  List<String> keyColumns) throws DdlException {
        List<ColumnSchema> columns = new ArrayList<>();
        for (ColumnDraft draft : drafts) {
            boolean isKey = keyColumns.stream().anyMatch(k -> k.equalsIgnoreCase(draft.name()));
            boolean nullable;
            if (draft.declaredNullable() != null) {
                nullable = draft.declaredNullable();
            } else {
                nullable = !(isKey && keysType == KeysType.PRIMARY_KEYS);
            }
            if (isKey && keysType == KeysType.PRIMARY_KEYS && nullable) {
                throw new DdlException(prefix(draft.line()) + "primary key column '" + draft.name()
                        + "' cannot be nullable; declare it NOT NULL");
            }
            columns.add(new ColumnSchema(draft.name(), draft.type(), nullable, draft.defaultValue()));
        }
        return columns;
    }

    private static boolean isAggregate(String word) {
        return switch (word.toUpperCase()) {
            case "SUM", "MIN", "MAX", "REPLACE", "REPLACE_IF_NOT_NULL", "HLL_UNION", "BITMAP_UNION",
                    "PERCENTILE_UNION" -> true;
            default -> false;
        };
    }

    private void skipIndexDefinition() throws DdlException {
        int depth = 0;
        while (true) {
            DdlToken token = peek();
            if (token.kind() == DdlToken.Kind.END || token.kind() == DdlToken.Kind.ERROR) {
                throw error("unterminated INDEX definition");
            }
            if (depth == 0 && (token.isSymbol(",") || token.isSymbol(")"))) {
                return;
            }
            if (token.isSymbol("(")) {
                depth++;
            } else if (token.isSymbol(")")) {
                depth--;
            }
            pos++;
        }
    }

    /** Skips a partition description up to the next clause keyword at parenthesis depth 0. */
    private void skipPartitionClause() throws DdlException {
        int depth = 0;
        while (true) {
            DdlToken token = peek();
            if (token.kind() == DdlToken.Kind.ERROR) {
                throw error(token.text());
            }
            if (token.kind() == DdlToken.Kind.END) {
                if (depth != 0) {
                    throw error("unbalanced parentheses in PARTITION BY");
                }
                return;
            }
            if (depth == 0 && (token.isSymbol(";") || token.isKeyword("DISTRIBUTED") || token.isKeyword("ORDER")
                    || token.isKeyword("PROPERTIES"))) {
                return;
            }
            if (token.isSymbol("(")) {
                depth++;
            } else if (token.isSymbol(")")) {
                depth--;
            }
            pos++;
        }
    }

    private Map<String, String> properties() throws DdlException {
        Map<String, String> properties = new LinkedHashMap<>();
        expectSymbol("(");
        if (acceptSymbol(")")) {
            return properties;
        }
        do {
            String key = string("property name");
            expectSymbol("=");
            String value = string("value of property '" + key + "'");
            properties.put(key, value);
        } while (acceptSymbol(","));
        expectSymbol(")");
        return properties;
    }

    private List<String> nameList(String what) throws DdlException {
        expectSymbol("(");
        List<String> names = new ArrayList<>();
        do {
            names.add(identifier(what));
        } while (acceptSymbol(","));
        expectSymbol(")");
        return names;
    }

    private void requireColumn(List<ColumnSchema> columns, String name, String what) throws DdlException {
        if (columns.stream().noneMatch(c -> c.name().equalsIgnoreCase(name))) {
            throw error(what + " '" + name + "' is not a column of the table");
        }
    }

    private boolean ifNotExists() throws DdlException {
        if (accept("IF")) {
            expectKeyword("NOT");
            expectKeyword("EXISTS");
            return true;
        }
        return false;
    }

    // ---- token helpers, also used by ColumnTypeParser ----

    DdlToken peek() {
        return tokens.get(pos);
    }

    private boolean accept(String keyword) {
        if (peek().isKeyword(keyword)) {
            pos++;
            return true;
        }
        return false;
    }

    boolean acceptSymbol(String symbol) {
        if (peek().isSymbol(symbol)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expectKeyword(String keyword) throws DdlException {
        if (!accept(keyword)) {
            throw error("expected " + keyword + ", found " + peek().describe());
        }
    }

    void expectSymbol(String symbol) throws DdlException {
        if (!acceptSymbol(symbol)) {
            throw error("expected '" + symbol + "', found " + peek().describe());
        }
    }

    String identifier(String what) throws DdlException {
        DdlToken token = peek();
        if (token.kind() != DdlToken.Kind.IDENTIFIER) {
            throw error("expected " + what + ", found " + token.describe());
        }
        pos++;
        return token.text();
    }

    private String string(String what) throws DdlException {
        DdlToken token = peek();
        if (token.kind() != DdlToken.Kind.STRING) {
            throw error("expected " + what + " as a quoted string, found " + token.describe());
        }
        pos++;
        return token.text();
    }

    int positiveInt(String what) throws DdlException {
        int value = positiveIntOrZero(what);
        if (value == 0) {
            throw error(what + " must be greater than 0");
        }
        return value;
    }

    int positiveIntOrZero(String what) throws DdlException {
        DdlToken token = peek();
        if (token.kind() != DdlToken.Kind.NUMBER || token.text().contains(".")) {
            throw error("expected " + what + " as a whole number, found " + token.describe());
        }
        pos++;
        try {
            return Integer.parseInt(token.text());
        } catch (NumberFormatException e) {
            throw error(what + " " + token.text() + " is too large");
        }
    }

    /** An error at the current token; a tokenizer problem there is reported instead of the parse problem. */
    DdlException error(String problem) {
        DdlToken token = peek();
        if (token.kind() == DdlToken.Kind.ERROR) {
            return new DdlException(prefix(token.line()) + token.text());
        }
        return new DdlException(prefix(token.line()) + problem);
    }

    /** An error located at an earlier token. */
    DdlException errorAt(DdlToken token, String problem) {
        return new DdlException(prefix(token.line()) + problem);
    }

    private String prefix(int line) {
        return "DDL statement " + statementNumber + " (line " + line + "): ";
    }
}
