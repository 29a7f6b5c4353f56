package io.lockstep.emulator.catalog;

import java.util.List;
import java.util.Optional;

/**
 * The emulator's databases and tables. Thread-safe: request threads read it while DDL may run.
 *
 * <p>Names are matched as StarRocks matches them: database and table names exactly (case-sensitive by
 * default in StarRocks), column names case-insensitively.
 */
public interface Catalog {

    /**
     * Runs DDL text: one or more {@code ;}-separated statements of the supported subset
     * ({@code CREATE DATABASE [IF NOT EXISTS]}, {@code CREATE TABLE [IF NOT EXISTS] ... PRIMARY KEY|DUPLICATE KEY (...)
     * DISTRIBUTED BY HASH(...) [BUCKETS n] [PROPERTIES (...)]}, {@code USE db}, {@code ALTER TABLE ... ADD|DROP
     * COLUMN}, {@code TRUNCATE TABLE}, {@code DROP TABLE}, {@code DROP DATABASE}; see {@link DdlParser}).
     *
     * @param ddl the statements
     * @throws DdlException naming the statement number, the line and what was wrong; statements before the
     *                      failing one stay applied
     */
    void execute(String ddl) throws DdlException;

    /**
     * Runs DDL text as {@link #execute(String)} does, with {@code currentDatabase} selected at the start (the
     * database of a SQL session), so an unqualified table name refers to it.
     *
     * @param currentDatabase the session's database, or null for none
     * @throws DdlException as {@link #execute(String)}
     */
    void execute(String ddl, String currentDatabase) throws DdlException;

    /** Creates a database if absent and returns it. */
    DatabaseInfo createDatabase(String name);

    /**
     * Registers a table (the database must exist).
     *
     * @throws DdlException if the database is unknown or the table already exists
     */
    TableSchema createTable(TableSchema schema) throws DdlException;

    Optional<DatabaseInfo> database(String name);

    /** All databases, ordered by id (creation order). */
    List<DatabaseInfo> databases();

    Optional<TableSchema> table(String database, String table);

    List<TableSchema> tables();

    /** Adds a listener told of every table created after this call (the storage creates its tables this way). */
    void addListener(CatalogListener listener);
}
