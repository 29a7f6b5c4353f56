package io.lockstep.app.create;

import io.lockstep.app.create.SourceCatalogDialect.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The three catalog reads every {@link SourceCatalogDialect} makes (tables, their columns, their primary keys), each
 * a query whose first two result columns are the table's database (or schema) and name, restricted to one table when
 * the caller names one; and the join of their results into {@link SourceTable}s. The dialects give the SQL and read
 * their own columns; this class owns running the statements and grouping rows by table.
 *
 * <p>Used on the caller's thread only; holds nothing between calls.
 */
final class CatalogQuery {

    /** Binds a query's parameters (the database and table it is restricted to, when given). */
    @FunctionalInterface
    interface Binder {
        void bind(PreparedStatement statement) throws SQLException;
    }

    /** Reads one value from the current row of a query, for the table the row names. */
    @FunctionalInterface
    interface RowReader<T> {
        T read(ResultSet row, TableName table) throws SQLException;
    }

    /** Consumes one row of a query, for the table the row names. */
    @FunctionalInterface
    private interface RowAction {
        void accept(ResultSet row, TableName table) throws SQLException;
    }

    private final Connection connection;
    private final Binder binder;

    /**
     * @param connection an open connection
     * @param binder binds every query's restriction parameters
     */
    CatalogQuery(Connection connection, Binder binder) {
        this.connection = connection;
        this.binder = binder;
    }

    /**
     * @param sql the query, its first two result columns the database and table
     * @param reader reads one value of a row
     * @return per table, its rows' values in query order
     * @throws SQLException when the query fails
     */
    <T> Map<TableName, List<T>> byTable(String sql, RowReader<T> reader) throws SQLException {
        Map<TableName, List<T>> values = new HashMap<>();
        forEachRow(sql, (row, name) -> values.computeIfAbsent(name, k -> new ArrayList<>()).add(reader.read(row, name)));
        return values;
    }

    /**
     * @param sql the query, its first two result columns the database and table
     * @return the tables the query lists, in its order
     * @throws SQLException when the query fails
     */
    List<TableName> tables(String sql) throws SQLException {
        List<TableName> tables = new ArrayList<>();
        forEachRow(sql, (row, name) -> tables.add(name));
        return tables;
    }

    private void forEachRow(String sql, RowAction action) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            binder.bind(statement);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    action.accept(rows, new TableName(rows.getString(1), rows.getString(2)));
                }
            }
        }
    }

    /**
     * @param tables the tables to describe, in order
     * @param columns their columns by table
     * @param keys their primary-key columns by table, in key order (a table without a key is absent)
     * @param noColumns the refusal of a listed table whose columns the user cannot see
     * @return the described tables, in the order of {@code tables}
     * @throws SourceCatalogException when a table has no visible column
     */
    static List<SourceTable> described(List<TableName> tables, Map<TableName, List<SourceColumn>> columns,
            Map<TableName, List<String>> keys, Function<TableName, String> noColumns) {
        List<SourceTable> described = new ArrayList<>(tables.size());
        for (TableName name : tables) {
            List<SourceColumn> tableColumns = columns.get(name);
            if (tableColumns == null) {
                throw new SourceCatalogException(noColumns.apply(name));
            }
            described.add(new SourceTable(name.database(), name.table(), tableColumns,
                    keys.getOrDefault(name, List.of())));
        }
        return described;
    }
}
