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
 * [ENGINE = OLAP] PRIMARY KEY|UNIQUE KEY|DUPLICATE KEY (cols) [COMMENT 's'] [PARTITION BY ... (skipped)]
 * [DISTRIBUTED BY HASH(cols) [BUCKETS n] | DISTRIBUTED BY RANDOM [BUCKETS n]] [ORDER BY (cols)]
 * [PROPERTIES ("k" = "v", ...)]}; {@code ALTER TABLE [db.]t ADD COLUMN col TYPE [NULL|NOT NULL] [DEFAULT v]
 * [COMMENT 's']} (appended at the end) and {@code ALTER TABLE [db.]t DROP COLUMN col}; {@code TRUNCATE TABLE [db.]t};
 * {@code DROP TABLE [IF EXISTS] [db.]t [FORCE]}; {@code DROP DATABASE [IF EXISTS] db [FORCE]}. Comments {@code --}, {@code #} and {@code /* *}{@code /}; names may be
 * backquoted. Types: see {@link ColumnTypeParser}. Column nullability follows StarRocks: columns are nullable
 * unless declared NOT NULL, except PRIMARY KEY and UNIQUE KEY columns, which are NOT NULL by default and may not be
 * declared NULL (the emulator keeps keys NOT NULL; Doris would accept nullable Unique Key columns).
 *
 * <p>Every error names the statement number, the line and the problem:
 * {@code DDL statement 2 (line 7): unknown column type 'INTEGR'}. Not thread-safe; use one parser per text.
 */
public final class DdlParser {
    private final DdlCursor c;
    private int statementNumber;
    private int statementLine;

    /** A parser over the given DDL text; call {@link #next()} until it returns null. */
    public DdlParser(String ddl) {
        this.c = new DdlCursor(DdlTokenizer.tokenize(ddl));
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
        while (c.peek().isSymbol(";")) {
            c.advance();
        }
        if (c.peek().kind() == DdlToken.Kind.END) {
            return null;
        }
        statementNumber = c.startStatement();
        statementLine = c.peek().line();
        DdlStatement statement;
        if (c.peek().isKeyword("USE")) {
            c.advance();
            statement = new DdlStatement.UseDatabase(statementNumber, statementLine,
                    c.identifier("database name"));
        } else if (c.peek().isKeyword("CREATE")) {
            c.advance();
            if (c.accept("DATABASE") || c.accept("SCHEMA")) {
                boolean ifNotExists = ifNotExists();
                statement = new DdlStatement.CreateDatabase(statementNumber, statementLine,
                        c.identifier("database name"), ifNotExists);
            } else if (c.accept("TABLE")) {
                statement = createTable();
            } else {
                throw c.error("only CREATE DATABASE and CREATE TABLE are supported, found " + c.peek().describe());
            }
        } else if (c.peek().isKeyword("DROP")) {
            c.advance();
            statement = drop();
        } else if (c.peek().isKeyword("TRUNCATE")) {
            c.advance();
            c.expectKeyword("TABLE");
            TableName t = tableName();
            statement = new DdlStatement.TruncateTable(statementNumber, statementLine, t.database(), t.name());
        } else if (c.peek().isKeyword("ALTER")) {
            c.advance();
            c.expectKeyword("TABLE");
            statement = alterTable();
        } else {
            throw c.error("unsupported statement starting with " + c.peek().describe()
                    + "; supported: CREATE DATABASE, CREATE TABLE, USE, ALTER TABLE, TRUNCATE TABLE, DROP TABLE,"
                    + " DROP DATABASE");
        }
        DdlToken end = c.peek();
        if (!end.isSymbol(";") && end.kind() != DdlToken.Kind.END) {
            throw c.error("expected ';' or end of input, found " + end.describe());
        }
        return statement;
    }

    /** A table name as written: {@code [db.]name}; database null when unqualified. */
    private record TableName(String database, String name) {
    }

    private TableName tableName() throws DdlException {
        String first = c.identifier("table name");
        if (c.acceptSymbol(".")) {
            return new TableName(first, c.identifier("table name"));
        }
        return new TableName(null, first);
    }

    /** {@code DROP TABLE [IF EXISTS] [db.]t [FORCE]} or {@code DROP DATABASE|SCHEMA [IF EXISTS] db [FORCE]}. */
    private DdlStatement drop() throws DdlException {
        if (c.accept("TABLE")) {
            boolean ifExists = ifExists();
            TableName t = tableName();
            c.accept("FORCE");
            return new DdlStatement.DropTable(statementNumber, statementLine, t.database(), t.name(), ifExists);
        }
        if (c.accept("DATABASE") || c.accept("SCHEMA")) {
            boolean ifExists = ifExists();
            String name = c.identifier("database name");
            c.accept("FORCE");
            return new DdlStatement.DropDatabase(statementNumber, statementLine, name, ifExists);
        }
        throw c.error("only DROP TABLE and DROP DATABASE are supported, found " + c.peek().describe());
    }

    /** {@code ALTER TABLE [db.]t ADD COLUMN col TYPE ...} or {@code ALTER TABLE [db.]t DROP COLUMN col}. */
    private DdlStatement alterTable() throws DdlException {
        TableName t = tableName();
        if (c.accept("ADD")) {
            c.expectKeyword("COLUMN");
            ColumnDraft draft = columnDefinition();
            if (c.peek().isKeyword("AFTER") || c.peek().isKeyword("FIRST")) {
                throw c.error("ADD COLUMN ... " + c.peek().text().toUpperCase() + " is not supported by the emulator;"
                        + " new columns are added at the end");
            }
            boolean nullable = draft.declaredNullable() == null || draft.declaredNullable();
            if (!nullable && draft.defaultValue() == null) {
                throw c.error("new column '" + draft.name() + "' is NOT NULL and has no DEFAULT; the rows already"
                        + " in the table need a value for it");
            }
            return new DdlStatement.AddColumn(statementNumber, statementLine, t.database(), t.name(),
                    new ColumnSchema(draft.name(), draft.type(), nullable, draft.defaultValue()));
        }
        if (c.accept("DROP")) {
            c.expectKeyword("COLUMN");
            return new DdlStatement.DropColumn(statementNumber, statementLine, t.database(), t.name(),
                    c.identifier("column name"));
        }
        throw c.error("only ALTER TABLE ... ADD COLUMN and DROP COLUMN are supported, found " + c.peek().describe());
    }

    private boolean ifExists() throws DdlException {
        if (c.accept("IF")) {
            c.expectKeyword("EXISTS");
            return true;
        }
        return false;
    }

    private DdlStatement.CreateTable createTable() throws DdlException {
        boolean ifNotExists = ifNotExists();
        String first = c.identifier("table name");
        String database = null;
        String name = first;
        if (c.peek().isSymbol(".")) {
            c.advance();
            database = first;
            name = c.identifier("table name");
        }
        c.expectSymbol("(");
        List<ColumnDraft> drafts = new ArrayList<>();
        do {
            if (c.peek().isKeyword("INDEX")) {
                skipIndexDefinition();
                continue;
            }
            drafts.add(columnDefinition());
        } while (c.acceptSymbol(","));
        c.expectSymbol(")");
        if (c.accept("ENGINE")) {
            c.expectSymbol("=");
            String engine = c.identifier("engine name");
            if (!engine.equalsIgnoreCase("OLAP")) {
                throw c.error("ENGINE = " + engine + " is not supported by the emulator; only OLAP tables are");
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
            throw c.error(violation);
        }
        while (!c.peek().isSymbol(";") && c.peek().kind() != DdlToken.Kind.END) {
            if (c.accept("COMMENT")) {
                c.string("table comment");
            } else if (c.accept("PARTITION")) {
                c.expectKeyword("BY");
                skipPartitionClause();
            } else if (c.accept("DISTRIBUTED")) {
                c.expectKeyword("BY");
                if (c.accept("HASH")) {
                    distribution = nameList("distribution column");
                    for (String column : distribution) {
                        requireColumn(columns, column, "distribution column");
                    }
                } else if (!c.accept("RANDOM")) {
                    throw c.error("expected HASH(...) or RANDOM after DISTRIBUTED BY, found " + c.peek().describe());
                }
                if (c.accept("BUCKETS")) {
                    buckets = c.positiveInt("bucket number");
                }
            } else if (c.accept("ORDER")) {
                c.expectKeyword("BY");
                for (String column : nameList("ORDER BY column")) {
                    requireColumn(columns, column, "ORDER BY column");
                }
            } else if (c.accept("PROPERTIES")) {
                properties.putAll(properties());
            } else {
                throw c.error("unexpected " + c.peek().describe() + " after the key definition; expected COMMENT,"
                        + " PARTITION BY, DISTRIBUTED BY, ORDER BY or PROPERTIES");
            }
        }
        return new DdlStatement.CreateTable(statementNumber, statementLine, database, name, ifNotExists, keysType,
                columns, keyColumns, distribution, buckets, properties);
    }

    private KeysType keysType() throws DdlException {
        DdlToken token = c.peek();
        if (c.accept("PRIMARY")) {
            c.expectKeyword("KEY");
            return KeysType.PRIMARY_KEYS;
        }
        if (c.accept("DUPLICATE")) {
            c.expectKeyword("KEY");
            return KeysType.DUPLICATE_KEYS;
        }
        if (c.accept("UNIQUE")) {
            c.expectKeyword("KEY");
            return KeysType.UNIQUE_KEYS;
        }
        if (token.isKeyword("AGGREGATE")) {
            throw c.error("AGGREGATE KEY tables are not supported by the emulator;"
                    + " use PRIMARY KEY, UNIQUE KEY or DUPLICATE KEY");
        }
        throw c.error("expected PRIMARY KEY (...), UNIQUE KEY (...) or DUPLICATE KEY (...) after the column list,"
                + " found " + token.describe());
    }

    /** A column as written, before the key list tells whether an undeclared nullability means NULL. */
    private record ColumnDraft(String name, ColumnType type, Boolean declaredNullable, String defaultValue,
                               int line) {
    }

    private ColumnDraft columnDefinition() throws DdlException {
        int line = c.peek().line();
        String name = c.identifier("column name");
        ColumnType type = ColumnTypeParser.parse(c, name);
        Boolean nullable = null;
        String defaultValue = null;
        while (true) {
            DdlToken token = c.peek();
            if (c.accept("NOT")) {
                c.expectKeyword("NULL");
                nullable = Boolean.FALSE;
            } else if (c.accept("NULL")) {
                nullable = Boolean.TRUE;
            } else if (c.accept("DEFAULT")) {
                defaultValue = defaultValue(name);
            } else if (c.accept("COMMENT")) {
                c.string("column comment");
            } else if (token.isKeyword("AUTO_INCREMENT") || token.isKeyword("AS")) {
                throw c.error(token.text().toUpperCase() + " columns are not supported by the emulator (column '"
                        + name + "')");
            } else if (token.kind() == DdlToken.Kind.IDENTIFIER && isAggregate(token.text())) {
                throw c.error("aggregate column '" + name + "' (" + token.text().toUpperCase()
                        + ") is not supported by the emulator");
            } else {
                return new ColumnDraft(name, type, nullable, defaultValue, line);
            }
        }
    }

    private String defaultValue(String column) throws DdlException {
        DdlToken token = c.peek();
        if (token.kind() == DdlToken.Kind.STRING || token.kind() == DdlToken.Kind.NUMBER) {
            c.advance();
            return token.text();
        }
        if (token.isSymbol("-") || token.isSymbol("+")) {
            c.advance();
            DdlToken number = c.peek();
            if (number.kind() != DdlToken.Kind.NUMBER) {
                throw c.error("expected a number after '" + token.text() + "' in DEFAULT of column '" + column + "'");
            }
            c.advance();
            return token.isSymbol("-") ? "-" + number.text() : number.text();
        }
        if (c.accept("NULL")) {
            return null;
        }
        throw c.error("DEFAULT of column '" + column + "' must be a quoted literal, a number or NULL, found "
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
                nullable = !(isKey && keysType.upsertsByKey());
            }
            if (isKey && keysType.upsertsByKey() && nullable) {
                String what = keysType == KeysType.UNIQUE_KEYS ? "unique key column '" : "primary key column '";
                String limit = keysType == KeysType.UNIQUE_KEYS ? " in the emulator" : "";
                throw new DdlException(c.prefix(draft.line()) + what + draft.name()
                        + "' cannot be nullable" + limit + "; declare it NOT NULL");
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
            DdlToken token = c.peek();
            if (token.kind() == DdlToken.Kind.END || token.kind() == DdlToken.Kind.ERROR) {
                throw c.error("unterminated INDEX definition");
            }
            if (depth == 0 && (token.isSymbol(",") || token.isSymbol(")"))) {
                return;
            }
            if (token.isSymbol("(")) {
                depth++;
            } else if (token.isSymbol(")")) {
                depth--;
            }
            c.advance();
        }
    }

    /** Skips a partition description up to the next clause keyword at parenthesis depth 0. */
    private void skipPartitionClause() throws DdlException {
        int depth = 0;
        while (true) {
            DdlToken token = c.peek();
            if (token.kind() == DdlToken.Kind.ERROR) {
                throw c.error(token.text());
            }
            if (token.kind() == DdlToken.Kind.END) {
                if (depth != 0) {
                    throw c.error("unbalanced parentheses in PARTITION BY");
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
            c.advance();
        }
    }

    private Map<String, String> properties() throws DdlException {
        Map<String, String> properties = new LinkedHashMap<>();
        c.expectSymbol("(");
        if (c.acceptSymbol(")")) {
            return properties;
        }
        do {
            String key = c.string("property name");
            c.expectSymbol("=");
            String value = c.string("value of property '" + key + "'");
            properties.put(key, value);
        } while (c.acceptSymbol(","));
        c.expectSymbol(")");
        return properties;
    }

    private List<String> nameList(String what) throws DdlException {
        c.expectSymbol("(");
        List<String> names = new ArrayList<>();
        do {
            names.add(c.identifier(what));
        } while (c.acceptSymbol(","));
        c.expectSymbol(")");
        return names;
    }

    private void requireColumn(List<ColumnSchema> columns, String name, String what) throws DdlException {
        if (columns.stream().noneMatch(c -> c.name().equalsIgnoreCase(name))) {
            throw c.error(what + " '" + name + "' is not a column of the table");
        }
    }

    private boolean ifNotExists() throws DdlException {
        if (c.accept("IF")) {
            c.expectKeyword("NOT");
            c.expectKeyword("EXISTS");
            return true;
        }
        return false;
    }
}
