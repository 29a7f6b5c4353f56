package io.lockstep.app.create;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** How {@link JdbcSourceCatalog} reads one kind of source database's catalog. */
interface SourceCatalogDialect {

    /** @return driver properties set unless the URL sets them (connect and socket timeouts in the driver's unit) */
    Map<String, String> connectionDefaults();

    /**
     * @param connection an open connection, used on the caller's thread only
     * @param database only this database/schema, or {@code null} for every non-system one
     * @param table only this table (with {@code database}), or {@code null} for every one
     * @param include whether to describe {@code db.table}
     * @return the described base tables, ordered by database and table
     * @throws SQLException when a catalog query fails
     * @throws SourceCatalogException when an included table cannot be described (e.g. no column is visible)
     */
    List<SourceTable> read(Connection connection, String database, String table, Predicate<String> include)
            throws SQLException;

    /** A table's name in the source: database (MySQL) or schema (PostgreSQL), and table. */
    record TableName(String database, String table) {

        /** @return {@code database.table} */
        String qualifiedName() {
            return database + "." + table;
        }
    }
}
