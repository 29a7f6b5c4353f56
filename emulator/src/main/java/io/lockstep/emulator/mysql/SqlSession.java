package io.lockstep.emulator.mysql;

import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.catalog.DdlException;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.storage.QueryResult;
import io.lockstep.emulator.storage.StoreException;
import io.lockstep.emulator.storage.TableStore;
import io.lockstep.emulator.txn.TransactionManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements of one query-port connection, run against the emulator's catalog and committed data, with the
 * session's user and current database.
 *
 * <ul>
 *   <li>{@code SELECT} / {@code WITH}: a select list made only of server expressions ({@code @@variable},
 *       {@code version()}, {@code current_version()} (StarRocks), {@code database()}, {@code schema()},
 *       {@code user()}, {@code current_user()}, {@code connection_id()}) is answered here; any other query runs in the
 *       committed-data store (H2, in one snapshot; translated by {@link H2Translator}; unqualified tables resolve in
 *       the current database).</li>
 *   <li>{@code SHOW CREATE TABLE t}, {@code SHOW VARIABLES [LIKE 'p']}, {@code SHOW WARNINGS}; the other SHOW and
 *       DESC statements and {@code EXPLAIN} through {@link ShowStatements}; queries on {@code information_schema}
 *       (or with it as the current database) through {@link InformationSchema}.</li>
 *   <li>DDL ({@code CREATE DATABASE|TABLE}, {@code ALTER TABLE ... ADD|DROP COLUMN}, {@code TRUNCATE TABLE},
 *       {@code DROP TABLE|DATABASE}) through the emulator's DDL parser, in the current database.</li>
 *   <li>{@code USE db}; {@code SET ...} ({@link SetStatement}, remembered per session); {@code BEGIN},
 *       {@code COMMIT}, {@code ROLLBACK} ({@link ExplicitTransaction}: every statement is its own transaction, a
 *       ROLLBACK that would have to undo writes is refused).</li>
 *   <li>{@code INSERT}, {@code UPDATE}, {@code DELETE} ({@link DmlStatements}), each a transaction of its own.</li>
 * </ul>
 * Queries are translated to the store's SQL by {@link H2Translator}; store failures become StarRocks errors
 * ({@link SqlErrors}). Anything else is answered with error 1064 naming the statement. Owned by the connection's
 * thread.
 */
final class SqlSession {
    private static final Pattern LEADING_COMMENTS = Pattern.compile("^(\\s*(/\\*.*?\\*/|--[^\\n]*\\n|#[^\\n]*\\n))*\\s*",
            Pattern.DOTALL);
    private static final Pattern IDENT = Pattern.compile("`([^`]+)`|([A-Za-z0-9_$]+)");
    private static final Pattern USE = Pattern.compile("(?is)USE\\s+" + name("db"));
    private static final Pattern SHOW_CREATE_TABLE = Pattern.compile("(?is)SHOW\\s+CREATE\\s+TABLE\\s+"
            + qualified());
    private static final Pattern SHOW_VARIABLES = Pattern.compile("(?is)SHOW\\s+(SESSION\\s+|GLOBAL\\s+)?VARIABLES"
            + "(\\s+LIKE\\s+'([^']*)')?");
    private static final Pattern SHOW_WARNINGS = Pattern.compile("(?is)SHOW\\s+(WARNINGS|ERRORS)");
    private static final Pattern SET = Pattern.compile("(?is)SET\\s.*");
    private static final Pattern ACCEPTED = Pattern.compile("(?is)(BEGIN|START\\s+TRANSACTION|COMMIT|ROLLBACK)");
    private static final Pattern DML = Pattern.compile("(?is)(INSERT|UPDATE|DELETE)\\s.*");
    private static final Pattern DDL = Pattern.compile("(?is)(CREATE|ALTER|TRUNCATE|DROP)\\s.*");
    private static final Pattern QUERY = Pattern.compile("(?is)(\\(\\s*)*(SELECT|WITH)\\b.*");
    private static final Pattern TRAILING_LIMIT = Pattern.compile("(?is)(.*?)\\s+LIMIT\\s+\\d+$");
    private static final Pattern SERVER_EXPRESSION = Pattern.compile("(?is)(@@[A-Za-z0-9_.]+|[A-Za-z_]+\\s*\\(\\s*\\))"
            + "(\\s+(AS\\s+)?(`[^`]+`|'[^']*'|\"[^\"]*\"|[A-Za-z0-9_]+))?");
    private static final Pattern DDL_PREFIX = Pattern.compile("^DDL statement \\d+ \\(line \\d+\\): ");

    private final Catalog catalog;
    private final TableStore store;
    private final TransactionManager transactions;
    private final QueryDialect dialect;
    private final SystemVariables variables;
    private final int connectionId;
    private final ShowStatements show;
    /** {@code @name} variables set by SET @name = value (lower-case names). */
    private final Map<String, Object> userVariables = new java.util.HashMap<>();
    private final ExplicitTransaction transaction = new ExplicitTransaction();
    private String user = "";
    private String database;

    SqlSession(Catalog catalog, TableStore store, TransactionManager transactions, QueryDialect dialect,
               SystemVariables variables, int connectionId, ShowStatements show) {
        this.catalog = catalog;
        this.store = store;
        this.transactions = transactions;
        this.dialect = dialect;
        this.variables = variables;
        this.connectionId = connectionId;
        this.show = show;
    }

    private static String name(String group) {
        return "(`(?<" + group + "Q>[^`]+)`|(?<" + group + ">[A-Za-z0-9_$]+))";
    }

    private static String qualified() {
        return "(" + name("db") + "\\s*\\.\\s*)?" + name("table");
    }

    private static String group(Matcher m, String name) {
        String quoted = m.group(name + "Q");
        return quoted != null ? quoted : m.group(name);
    }

    void user(String value) {
        this.user = value;
    }

    /** COM_RESET_CONNECTION: variables back to their defaults, user variables gone; the database stays. */
    void reset() {
        variables.reset();
        userVariables.clear();
    }

    /**
     * Makes {@code name} the current database ({@code USE}, COM_INIT_DB, the handshake's database).
     *
     * @throws SqlError 1049 when the database does not exist
     */
    void useDatabase(String name) {
        String db = name.strip();
        if (db.length() > 1 && db.startsWith("`") && db.endsWith("`")) {
            db = db.substring(1, db.length() - 1);
        }
        if (ShowStatements.isSchema(db)) {
            db = InformationSchemaSql.NAME;
        } else if (catalog.database(db).isEmpty()) {
            throw SqlErrors.unknownDatabase(db);
        }
        database = db;
    }

    /**
     * Runs one statement (leading comments and trailing semicolons are ignored).
     *
     * @throws SqlError with the code and message the client gets
     */
    SqlResult execute(String sqlText) {
        String sql = strip(sqlText);
        if (sql.isEmpty()) {
            throw SqlErrors.syntax(sqlText, 0, "Unexpected input '<EOF>', the statement is empty");
        }
        Matcher m;
        if ((m = USE.matcher(sql)).matches()) {
            useDatabase(group(m, "db"));
            return new SqlResult.Ok(0);
        }
        if (SET.matcher(sql).matches()) {
            SetStatement.run(sql, variables, userVariables);
            return new SqlResult.Ok(0);
        }
        if (ACCEPTED.matcher(sql).matches()) {
            transaction.run(sql);
            return new SqlResult.Ok(0);
        }
        SqlResult.Rows shown = show.execute(sql, database, user, connectionId);
        if (shown != null) {
            return shown;
        }
        if ((m = SHOW_CREATE_TABLE.matcher(sql)).matches()) {
            TableSchema table = table(m);
            return new SqlResult.Rows(List.of("Table", "Create Table"),
                    List.of(List.of(table.name(), SchemaText.createTable(table))));
        }
        if ((m = SHOW_VARIABLES.matcher(sql)).matches()) {
            Pattern like = m.group(3) == null ? null : Like.pattern(m.group(3));
            List<List<Object>> rows = new ArrayList<>();
            for (Map.Entry<String, Object> e : variables.all().entrySet()) {
                if (like == null || like.matcher(e.getKey()).matches()) {
                    rows.add(List.of(e.getKey(), String.valueOf(e.getValue())));
                }
            }
            return new SqlResult.Rows(List.of("Variable_name", "Value"), rows);
        }
        if (SHOW_WARNINGS.matcher(sql).matches()) {
            return new SqlResult.Rows(List.of("Level", "Code", "Message"), List.of());
        }
        if (DDL.matcher(sql).matches()) {
            return ddl(sql);
        }
        if (DML.matcher(sql).matches()) {
            long timeoutMs = ((Number) variables.get("query_timeout")).longValue() * 1000;
            long rows = new DmlStatements(catalog, store, transactions, timeoutMs).run(sql, database, this::toH2);
            transaction.wrote(((Number) variables.get("autocommit")).longValue() != 0);
            return new SqlResult.Ok(rows);
        }
        if (QUERY.matcher(sql).matches()) {
            SqlResult.Rows server = serverExpressions(sql);
            if (server != null) {
                return server;
            }
            if (InformationSchemaSql.references(sql) || ShowStatements.isSchema(database)) {
                return show.informationSchema(sql, database);
            }
            return query(sql);
        }
        String[] words = abbreviate(sql).split("\\s+");
        if (words[0].equalsIgnoreCase("SHOW") && words.length > 1) {
            String what = words.length > 2 && words[1].equalsIgnoreCase("CREATE") ? words[1] + " " + words[2]
                    : words[1];
            throw SqlErrors.syntax(sql, 0, "the emulator's query port does not run SHOW "
                    + what.toUpperCase(java.util.Locale.ROOT) + " (see docs/protocol.md for the SHOW statements it"
                    + " runs)");
        }
        throw SqlErrors.syntax(sql, 0, "Unexpected input '" + words[0] + "', the emulator's "
                + "query port runs SELECT, SHOW, DESC, USE, SET, INSERT, UPDATE, DELETE and the DDL subset");
    }

    private String requireDatabase() {
        if (database == null) {
            throw new SqlError(SqlError.NO_DB, "3D000", "No database selected");
        }
        return database;
    }

    private TableSchema table(Matcher m) {
        String db = group(m, "db") != null ? group(m, "db") : requireDatabase();
        String name = group(m, "table");
        if (catalog.database(db).isEmpty()) {
            throw new SqlError(SqlError.BAD_DB, "42000", "Unknown database '" + db + "'");
        }
        return catalog.table(db, name).orElseThrow(() -> new SqlError(SqlError.BAD_TABLE, "42S02",
                "Unknown table '" + db + "." + name + "'"));
    }

    private SqlResult ddl(String sql) {
        try {
            catalog.execute(sql, database);
            return new SqlResult.Ok(0);
        } catch (DdlException e) {
            String message = DDL_PREFIX.matcher(e.getMessage()).replaceFirst("");
            throw new SqlError(ddlErrorCode(message), ddlSqlState(message), message);
        } catch (StoreException e) {
            throw SqlErrors.fromStore(e, sql);
        }
    }

    private static int ddlErrorCode(String message) {
        if (message.startsWith("Unknown database")) {
            return SqlError.BAD_DB;
        }
        if (message.startsWith("No database selected")) {
            return SqlError.NO_DB;
        }
        if (message.startsWith("Table '") && message.endsWith("already exists")) {
            return SqlError.TABLE_EXISTS;
        }
        if (message.endsWith("; database exists")) {
            return SqlError.DB_CREATE_EXISTS;
        }
        if (message.endsWith("; database doesn't exist")) {
            return SqlError.DB_DROP_EXISTS;
        }
        if (message.startsWith("Unknown table")) {
            return SqlError.BAD_TABLE;
        }
        return SqlError.SYNTAX;
    }

    private static String ddlSqlState(String message) {
        return switch (ddlErrorCode(message)) {
            case SqlError.NO_DB -> "3D000";
            case SqlError.TABLE_EXISTS -> "42S01";
            case SqlError.BAD_TABLE -> "42S02";
            case SqlError.DB_CREATE_EXISTS, SqlError.DB_DROP_EXISTS -> "HY000";
            default -> "42000";
        };
    }

    /** A select list of server expressions only, answered here; null when the query is for the store. */
    private SqlResult.Rows serverExpressions(String sql) {
        Matcher limit = TRAILING_LIMIT.matcher(sql);
        String body = limit.matches() ? limit.group(1) : sql;
        if (!body.regionMatches(true, 0, "SELECT", 0, 6) || !Character.isWhitespace(body.charAt(6))) {
            return null;
        }
        List<String> items = splitTopLevel(body.substring(7));
        List<String> labels = new ArrayList<>();
        Object[] values = new Object[items.size()];
        for (int i = 0; i < items.size(); i++) {
            Matcher m = SERVER_EXPRESSION.matcher(items.get(i).strip());
            if (!m.matches()) {
                return null;
            }
            String expression = m.group(1);
            Object value;
            if (expression.startsWith("@@")) {
                value = variables.get(expression.substring(2));
            } else {
                String function = expression.replaceAll("\\s", "").toLowerCase(Locale.ROOT);
                switch (function) {
                    case "version()" -> value = dialect.mysqlVersion();
                    case "current_version()" -> {
                        if (dialect.currentVersion() == null) {
                            return null;
                        }
                        value = dialect.currentVersion();
                    }
                    case "database()", "schema()" -> value = database;
                    case "user()", "current_user()", "session_user()", "system_user()" ->
                            value = "'" + user + "'@'%'";
                    case "connection_id()" -> value = (long) connectionId;
                    default -> {
                        return null;
                    }
                }
            }
            values[i] = value;
            String alias = m.group(4);
            labels.add(alias == null ? expression : unquote(alias));
        }
        return new SqlResult.Rows(labels, List.of(Arrays.asList(values)));
    }

    private SqlResult.Rows query(String sql) {
        String h2 = toH2(sql);
        try {
            QueryResult result = store.query(h2, database);
            return new SqlResult.Rows(result.columns(), result.columnTypes(), result.rows());
        } catch (StoreException e) {
            throw SqlErrors.fromStore(e, sql);
        }
    }

    /** A StarRocks query in the store's SQL ({@link H2Translator}), with this session's clock, zone and names. */
    private String toH2(String sql) {
        SqlFunctions.Context context = new SqlFunctions.Context(java.time.Instant.now(), variables.timeZone(),
                database, user, connectionId, dialect);
        return new H2Translator(catalog, variables, userVariables, context, sql).translate();
    }

    /** Leading comments, surrounding blanks and trailing semicolons removed. */
    static String strip(String sql) {
        String s = LEADING_COMMENTS.matcher(sql).replaceFirst("").strip();
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).strip();
        }
        return s;
    }

    /** MySQL back-quoted identifiers as H2 double-quoted ones; string literals are left alone. */
    static String h2Quotes(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        char inString = 0;
        for (int i = 0; i < sql.length(); i++) {
            char ch = sql.charAt(i);
            if (inString != 0) {
                out.append(ch);
                if (ch == inString) {
                    inString = 0;
                }
            } else if (ch == '\'' || ch == '"') {
                inString = ch;
                out.append(ch);
            } else {
                out.append(ch == '`' ? '"' : ch);
            }
        }
        return out.toString();
    }

    /** Splits a select list at commas outside parentheses and quotes. */
    private static List<String> splitTopLevel(String list) {
        List<String> items = new ArrayList<>();
        int depth = 0;
        char inString = 0;
        int start = 0;
        for (int i = 0; i < list.length(); i++) {
            char ch = list.charAt(i);
            if (inString != 0) {
                if (ch == inString) {
                    inString = 0;
                }
            } else if (ch == '\'' || ch == '"' || ch == '`') {
                inString = ch;
            } else if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth--;
            } else if (ch == ',' && depth == 0) {
                items.add(list.substring(start, i));
                start = i + 1;
            }
        }
        items.add(list.substring(start));
        return items;
    }

    private static String unquote(String alias) {
        char first = alias.charAt(0);
        return first == '`' || first == '\'' || first == '"' ? alias.substring(1, alias.length() - 1) : alias;
    }

    private static String abbreviate(String sql) {
        String oneLine = sql.replaceAll("\\s+", " ");
        return oneLine.length() > 120 ? oneLine.substring(0, 120) + "..." : oneLine;
    }
}
