package io.lockstep.emulator.mysql;

import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.catalog.ColumnSchema;
import io.lockstep.emulator.catalog.ColumnType;
import io.lockstep.emulator.catalog.DatabaseInfo;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.load.RowChange;
import io.lockstep.emulator.mysql.SqlLexer.Kind;
import io.lockstep.emulator.mysql.SqlLexer.Token;
import io.lockstep.emulator.storage.QueryResult;
import io.lockstep.emulator.storage.StoreException;
import io.lockstep.emulator.storage.TableChanges;
import io.lockstep.emulator.storage.TableStore;
import io.lockstep.emulator.txn.TransactionException;
import io.lockstep.emulator.txn.TransactionManager;
import io.lockstep.emulator.txn.TransactionSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code INSERT}, {@code UPDATE} and {@code DELETE} on the query port, each a transaction of its own as in StarRocks
 * (FE {@code qe/StmtExecutor.java} handleDMLStmt: begin with the label {@code insert_<uuid>} or
 * {@code WITH LABEL l}, write, commit, publish, VISIBLE), listed with the loads by SHOW PROC '/transactions'.
 *
 * <ul>
 *   <li>{@code INSERT INTO [db.]t [WITH LABEL l] [(columns)] VALUES (...), ... | SELECT ...}: the rows are
 *       computed and cast to the columns' types by the store first, so a bad value fails the statement before a
 *       transaction begins; missing columns get their DEFAULT or NULL; a NULL for a NOT NULL column fails the
 *       statement ("Insert has filtered data", as StarRocks in strict mode). Column-count mismatch: StarRocks'
 *       {@code ERR_INSERT_COLUMN_COUNT_MISMATCH} (5604, 42601).</li>
 *   <li>{@code UPDATE [db.]t SET c = expr, ... [WHERE ...]} and {@code DELETE FROM [db.]t [WHERE ...]}: only on
 *       PRIMARY KEY (and Doris UNIQUE KEY) tables, as StarRocks' {@code sql/analyzer/UpdateAnalyzer.java}
 *       ("does not support update", "primary key column cannot be updated"); the matching rows are read, changed
 *       and written back as upserts / deletes by key.</li>
 * </ul>
 * Each answers OK with the number of rows written. The rows are published straight to the store (not through the
 * stream-load publisher's deferred queue). Owned by the connection's thread.
 */
final class DmlStatements {
    private static final Logger LOG = LoggerFactory.getLogger(DmlStatements.class);

    private final Catalog catalog;
    private final TableStore store;
    private final TransactionManager transactions;
    private final long timeoutMs;

    /**
     * @param timeoutMs the transaction's begin→commit budget (the session's {@code query_timeout}, in ms)
     */
    DmlStatements(Catalog catalog, TableStore store, TransactionManager transactions, long timeoutMs) {
        this.catalog = catalog;
        this.store = store;
        this.transactions = transactions;
        this.timeoutMs = timeoutMs;
    }

    /** A translator of StarRocks query text to H2 query text (checks tables and functions). */
    interface Translation extends Function<String, String> {
    }

    /**
     * Runs INSERT, UPDATE or DELETE.
     *
     * @param sql       the statement
     * @param database  the session's current database, or null
     * @param translate StarRocks query text → H2 query text (checks tables and functions)
     * @return the number of rows written
     * @throws SqlError for unknown tables, bad values, unsupported tables, or a refused transaction
     */
    long run(String sql, String database, Translation translate) {
        List<Token> all = SqlLexer.tokens(sql);
        List<Integer> words = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).kind() != Kind.SPACE) {
                words.add(i);
            }
        }
        Token first = all.get(words.get(0));
        if (first.is("INSERT")) {
            return insert(sql, all, words, database, translate);
        }
        if (first.is("UPDATE")) {
            return update(sql, all, words, database, translate);
        }
        return delete(sql, all, words, database, translate);
    }

    private long insert(String sql, List<Token> all, List<Integer> words, String database, Translation translate) {
        int w = 1;
        if (all.get(words.get(w)).is("OVERWRITE")) {
            throw SqlErrors.analysis("INSERT OVERWRITE is not supported by the emulator");
        }
        expect(sql, all.get(words.get(w++)), "INTO");
        int[] next = new int[] {w};
        TableSchema table = tableAt(sql, all, words, next, database);
        w = next[0];
        String label = null;
        if (w + 2 < words.size() && all.get(words.get(w)).is("WITH") && all.get(words.get(w + 1)).is("LABEL")) {
            label = all.get(words.get(w + 2)).value();
            w += 3;
        }
        List<Integer> targets = new ArrayList<>();
        if (w < words.size() && all.get(words.get(w)).isSymbol("(")) {
            w++;
            while (w < words.size() && !all.get(words.get(w)).isSymbol(")")) {
                Token column = all.get(words.get(w));
                if (column.isName()) {
                    targets.add(columnIndex(table, column.value()));
                }
                w++;
            }
            w++;
        } else {
            for (int c = 0; c < table.columns().size(); c++) {
                targets.add(c);
            }
        }
        if (w >= words.size()) {
            throw SqlErrors.syntax(sql, sql.length(), "Unexpected input '<EOF>', VALUES or SELECT expected");
        }
        String source;
        if (all.get(words.get(w)).is("VALUES")) {
            source = valuesAsSelect(sql, all, words.get(w) + 1);
        } else {
            source = SqlLexer.join(all.subList(words.get(w), all.size()));
        }
        String h2 = translate.apply(source);
        List<String> casts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            names.add("\"_" + i + "\"");
            casts.add("CAST(\"_" + i + "\" AS " + H2Types.column(table.columns().get(targets.get(i)).type()) + ")");
        }
        QueryResult result = query("SELECT " + String.join(", ", casts) + " FROM (" + h2 + ") AS \"_v\"("
                + String.join(", ", names) + ")", sql, database, targets.size(), table);
        List<RowChange> rows = new ArrayList<>();
        int rowNumber = 0;
        for (List<Object> values : result.rows()) {
            rowNumber++;
            Object[] row = new Object[table.columns().size()];
            boolean[] set = new boolean[row.length];
            for (int i = 0; i < targets.size(); i++) {
                row[targets.get(i)] = values.get(i);
                set[targets.get(i)] = true;
            }
            for (int c = 0; c < row.length; c++) {
                if (!set[c]) {
                    row[c] = table.columns().get(c).defaultValue();
                }
            }
            checkRow(table, row, rowNumber);
            rows.add(new RowChange(row, false));
        }
        return commit(table, label, rows);
    }

    /**
     * StarRocks' strict-mode checks of one row: NOT NULL columns get a value, strings fit their declared length in
     * UTF-8 bytes (StarRocks counts VARCHAR lengths in bytes).
     *
     * @throws SqlError 5610 (ERR_LOAD_HAS_FILTERED_DATA) naming the row and column
     */
    private static void checkRow(TableSchema table, Object[] row, int rowNumber) {
        for (int c = 0; c < row.length; c++) {
            ColumnSchema column = table.columns().get(c);
            if (row[c] == null && !column.nullable()) {
                throw new SqlError(5610, "22000", "Insert has filtered data : row " + rowNumber + ": column '"
                        + column.name() + "' is NOT NULL and gets NULL");
            }
            ColumnType.Kind kind = column.type().kind();
            if (row[c] instanceof String text && (kind == ColumnType.Kind.CHAR || kind == ColumnType.Kind.VARCHAR
                    || kind == ColumnType.Kind.STRING) && column.type().length() > 0
                    && text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > column.type().length()) {
                throw new SqlError(5610, "22000", "Insert has filtered data : row " + rowNumber + ": the value of "
                        + "column '" + column.name() + "' is longer than its " + column.type().length() + " bytes");
            }
        }
    }

    /**
     * {@code VALUES (a, b), (c, d)} as {@code SELECT a AS `_0`, b AS `_1` UNION ALL SELECT c AS `_0`, d AS `_1`}: the
     * aliases keep H2 from naming two columns alike (a row {@code (1, NULL, NULL)} would otherwise have two columns
     * named NULL, which H2 refuses in a derived table).
     */
    private static String valuesAsSelect(String sql, List<Token> all, int from) {
        StringBuilder select = new StringBuilder();
        int depth = 0;
        int column = 0;
        for (int i = from; i < all.size(); i++) {
            Token t = all.get(i);
            if (t.isSymbol("(") && depth++ == 0) {
                select.append(select.length() == 0 ? "SELECT " : " UNION ALL SELECT ");
                column = 0;
            } else if (t.isSymbol(")") && --depth == 0) {
                select.append(" AS `_").append(column).append("` ");
            } else if (depth == 1 && t.isSymbol(",")) {
                select.append(" AS `_").append(column++).append("`, ");
            } else if (depth > 0) {
                select.append(t.text());
            } else if (!t.isSymbol(",") && t.kind() != Kind.SPACE) {
                throw SqlErrors.syntax(sql, sql.indexOf(t.text()), "Unexpected input '" + t.text()
                        + "' in VALUES");
            }
        }
        if (select.length() == 0) {
            throw SqlErrors.syntax(sql, sql.length(), "VALUES needs at least one row");
        }
        return select.toString();
    }

    private long update(String sql, List<Token> all, List<Integer> words, String database, Translation translate) {
        int[] next = new int[] {1};
        TableSchema table = tableAt(sql, all, words, next, database);
        requireKeyTable(table, "update");
        int w = next[0];
        expect(sql, all.get(words.get(w++)), "SET");
        if (topLevel(all, words.get(w), "FROM") >= 0) {
            throw SqlErrors.analysis("UPDATE ... FROM (a multi-table UPDATE) is not supported by the emulator; "
                    + "update one table with a WHERE clause");
        }
        int where = topLevel(all, words.get(w), "WHERE");
        String[] expressions = new String[table.columns().size()];
        for (int c = 0; c < expressions.length; c++) {
            expressions[c] = "`" + table.columns().get(c).name().replace("`", "``") + "`";
        }
        int start = words.get(w);
        int end = where < 0 ? all.size() : where;
        for (int[] assignment : SqlLexer.splitAtTopLevelCommas(all, start, end)) {
            int equals = -1;
            for (int i = assignment[0]; i < assignment[1]; i++) {
                if (all.get(i).isSymbol("=")) {
                    equals = i;
                    break;
                }
            }
            Token column = null;
            for (int i = assignment[0]; i < Math.max(equals, assignment[0]); i++) {
                if (all.get(i).isName()) {
                    column = all.get(i);
                }
            }
            if (equals < 0 || column == null) {
                throw SqlErrors.syntax(sql, 0, "an assignment 'column = expression' is expected after SET");
            }
            int index = columnIndex(table, column.value());
            String name = table.columns().get(index).name();
            if (table.keyColumns().stream().anyMatch(k -> k.equalsIgnoreCase(name))) {
                throw SqlErrors.analysis("primary key column cannot be updated: " + column.value());
            }
            expressions[index] = "(" + SqlLexer.join(all.subList(equals + 1, assignment[1])) + ")";
        }
        List<RowChange> rows = new ArrayList<>();
        for (List<Object> values : selectRows(sql, table, List.of(expressions), where < 0 ? ""
                : SqlLexer.join(all.subList(where, all.size())), database, translate)) {
            Object[] row = values.toArray();
            checkRow(table, row, rows.size() + 1);
            rows.add(new RowChange(row, false));
        }
        return commit(table, null, rows);
    }

    private long delete(String sql, List<Token> all, List<Integer> words, String database, Translation translate) {
        expect(sql, all.get(words.get(1)), "FROM");
        int[] next = new int[] {2};
        TableSchema table = tableAt(sql, all, words, next, database);
        requireKeyTable(table, "delete");
        int where = next[0] < words.size() ? words.get(next[0]) : all.size();
        if (where < all.size() && !all.get(where).is("WHERE")) {
            throw SqlErrors.syntax(sql, sql.indexOf(all.get(where).text()), "Unexpected input '"
                    + all.get(where).text() + "', WHERE expected");
        }
        List<String> columns = table.columns().stream()
                .map(c -> "`" + c.name().replace("`", "``") + "`").toList();
        List<RowChange> rows = new ArrayList<>();
        for (List<Object> values : selectRows(sql, table, columns, SqlLexer.join(all.subList(where, all.size())),
                database, translate)) {
            rows.add(new RowChange(values.toArray(), true));
        }
        return commit(table, null, rows);
    }

    /** The table's rows matching {@code where}, as the given expressions cast to the columns' types. */
    private List<List<Object>> selectRows(String sql, TableSchema table, List<String> expressions, String where,
                                          String database, Translation translate) {
        String from = "`" + table.database().replace("`", "``") + "`.`" + table.name().replace("`", "``") + "`";
        List<String> items = new ArrayList<>();
        for (int c = 0; c < expressions.size(); c++) {
            items.add(expressions.get(c) + " AS `_" + c + "`");
        }
        String h2 = translate.apply("SELECT " + String.join(", ", items) + " FROM " + from + " " + where);
        List<String> casts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int c = 0; c < expressions.size(); c++) {
            names.add("\"_" + c + "\"");
            casts.add("CAST(\"_" + c + "\" AS " + H2Types.column(table.columns().get(c).type()) + ")");
        }
        return query("SELECT " + String.join(", ", casts) + " FROM (" + h2 + ") AS \"_v\"("
                + String.join(", ", names) + ")", sql, database, expressions.size(), table).rows();
    }

    /**
     * Runs {@code SELECT casts FROM (source) AS _v(_0, ...)}; first checks that the source has as many columns as
     * there are targets (StarRocks' ERR_INSERT_COLUMN_COUNT_MISMATCH otherwise).
     */
    private QueryResult query(String h2, String sql, String database, int expectedColumns, TableSchema table) {
        int open = h2.indexOf("FROM (") + "FROM (".length();
        String source = h2.substring(open, h2.lastIndexOf(") AS \"_v\""));
        try {
            int columns = store.query("SELECT * FROM (" + source + ") AS \"_c\" LIMIT 0", database).columns().size();
            if (columns != expectedColumns) {
                throw new SqlError(5604, "42601", "Inserted target column count: " + expectedColumns
                        + " doesn't match select/value column count: " + columns);
            }
            return store.query(h2, database);
        } catch (StoreException e) {
            throw SqlErrors.fromStore(e, sql);
        }
    }

    private long commit(TableSchema table, String givenLabel, List<RowChange> rows) {
        DatabaseInfo db = catalog.database(table.database())
                .orElseThrow(() -> SqlErrors.unknownDatabase(table.database()));
        String label = givenLabel != null ? givenLabel : "insert_" + UUID.randomUUID();
        TransactionSnapshot txn;
        try {
            txn = transactions.begin(db.name(), db.id(), label, table.name(), timeoutMs);
            transactions.commit(txn.txnId());
        } catch (TransactionException e) {
            throw new SqlError(5301, "55P03", "Failed to begin transaction: " + e.getMessage());
        }
        try {
            store.publish(txn.txnId(), List.of(new TableChanges(table, rows)));
        } catch (StoreException e) {
            LOG.error("query port: transaction {} (label {}) is COMMITTED but its publish failed: {}", txn.txnId(),
                    label, e.getMessage());
            throw SqlErrors.fromStore(e, "publish of " + label);
        }
        transactions.markVisible(txn.txnId());
        return rows.size();
    }

    private static void requireKeyTable(TableSchema table, String verb) {
        if (!table.keysType().upsertsByKey()) {
            throw SqlErrors.analysis("does not support " + verb + " on table '" + table.name() + "': only PRIMARY "
                    + "KEY tables can be " + (verb.equals("update") ? "updated" : "deleted from") + " with SQL here");
        }
    }

    /** [db.]table at words[next[0]]; advances next[0] past it. */
    private TableSchema tableAt(String sql, List<Token> all, List<Integer> words, int[] next, String database) {
        int w = next[0];
        if (w >= words.size() || !all.get(words.get(w)).isName()) {
            throw SqlErrors.syntax(sql, sql.length(), "a table name is expected");
        }
        String db = database;
        String name = all.get(words.get(w)).value();
        if (w + 2 < words.size() && all.get(words.get(w + 1)).isSymbol(".") && all.get(words.get(w + 2)).isName()) {
            db = name;
            name = all.get(words.get(w + 2)).value();
            w += 2;
        }
        next[0] = w + 1;
        if (db == null) {
            throw new SqlError(SqlError.NO_DB, "3D000", "No database selected");
        }
        if (catalog.database(db).isEmpty()) {
            throw SqlErrors.unknownDatabase(db);
        }
        String finalDb = db;
        String finalName = name;
        return catalog.table(db, name).orElseThrow(() -> SqlErrors.unknownTable(finalDb, finalName));
    }

    private static int columnIndex(TableSchema table, String column) {
        for (int c = 0; c < table.columns().size(); c++) {
            if (table.columns().get(c).name().equalsIgnoreCase(column)) {
                return c;
            }
        }
        throw SqlErrors.unknownColumn(column, table.name());
    }

    private static int topLevel(List<Token> all, int from, String word) {
        int depth = 0;
        for (int i = from; i < all.size(); i++) {
            Token t = all.get(i);
            depth += t.isSymbol("(") ? 1 : t.isSymbol(")") ? -1 : 0;
            if (depth == 0 && t.is(word)) {
                return i;
            }
        }
        return -1;
    }

    private static void expect(String sql, Token token, String word) {
        if (!token.is(word)) {
            throw SqlErrors.syntax(sql, Math.max(0, sql.indexOf(token.text())), "Unexpected input '"
                    + token.text() + "', '" + word + "' expected");
        }
    }
}
