package io.lockstep.emulator.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.emulator.catalog.CatalogSnapshot;
import io.lockstep.emulator.catalog.ColumnSchema;
import io.lockstep.emulator.catalog.ColumnType;
import io.lockstep.emulator.catalog.DatabaseInfo;
import io.lockstep.emulator.catalog.InMemoryCatalog;
import io.lockstep.emulator.catalog.KeysType;
import io.lockstep.emulator.catalog.TableDefinition;
import io.lockstep.emulator.catalog.TableSchema;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The catalog kept in the store's own H2 database, so that a file store brings back after a restart every database
 * and table created since, by {@code --ddl}, the query port or the Java API, with its later ALTERs.
 *
 * <p>Layout: schema {@code __lockstep_catalog} ({@link InMemoryCatalog#RESERVED_DATABASE}: no database may have the
 * name, and StarRocks' and Doris' start with a letter anyway; the read-only query user is granted nothing on it) with
 * {@code databases(name, id)}, {@code tables(db, name, id, definition, created)} ({@code definition}: the table now,
 * {@code created}: what its {@code CREATE TABLE} declared, both JSON
 * {@code {"keysType","keyColumns":[..],"columns":[{"name","kind","length","precision","scale","nullable","default"}]}})
 * and {@code ids(next_id)}. Each catalog change writes its rows right
 * after the store changed the table itself (H2 commits DDL on its own, so the two are two commits; a crash between
 * them loses only that one change's catalog row).
 *
 * <p>Not thread-safe: {@link H2TableStore} calls it with its writer connection, under its write lock, and commits.
 */
final class H2CatalogTables {
    private static final String SCHEMA = H2Sql.quote(InMemoryCatalog.RESERVED_DATABASE);
    private static final String DATABASES = SCHEMA + ".\"databases\"";
    private static final String TABLES = SCHEMA + ".\"tables\"";
    private static final String IDS = SCHEMA + ".\"ids\"";
    private static final ObjectMapper JSON = new ObjectMapper();

    private H2CatalogTables() {
    }

    /** Creates the catalog tables if absent. */
    static void create(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
            s.execute("CREATE TABLE IF NOT EXISTS " + DATABASES
                    + " (\"name\" VARCHAR PRIMARY KEY, \"id\" BIGINT NOT NULL)");
            s.execute("CREATE TABLE IF NOT EXISTS " + TABLES + " (\"db\" VARCHAR NOT NULL, \"name\" VARCHAR NOT NULL,"
                    + " \"id\" BIGINT NOT NULL, \"definition\" VARCHAR NOT NULL, \"created\" VARCHAR NOT NULL,"
                    + " PRIMARY KEY (\"db\", \"name\"))");
            s.execute("CREATE TABLE IF NOT EXISTS " + IDS + " (\"next_id\" BIGINT NOT NULL)");
        }
    }

    /** Records a database (again: the same row) and counts its id as handed out. */
    static void saveDatabase(Connection c, DatabaseInfo db) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("MERGE INTO " + DATABASES + " KEY (\"name\") VALUES (?, ?)")) {
            p.setString(1, db.name());
            p.setLong(2, db.id());
            p.executeUpdate();
        }
        idHandedOut(c, db.id());
    }

    static void deleteDatabase(Connection c, String name) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("DELETE FROM " + TABLES + " WHERE \"db\" = ?");
             PreparedStatement d = c.prepareStatement("DELETE FROM " + DATABASES + " WHERE \"name\" = ?")) {
            p.setString(1, name);
            p.executeUpdate();
            d.setString(1, name);
            d.executeUpdate();
        }
    }

    /**
     * Records a created table. A row of the same name and id (the table told again, e.g. after a restore) keeps
     * its {@code created} definition; any other row of that name is replaced.
     */
    static void saveCreatedTable(Connection c, TableSchema table) throws SQLException {
        String json = toJson(TableDefinition.of(table));
        String created = json;
        try (PreparedStatement q = c.prepareStatement("SELECT \"id\", \"created\" FROM " + TABLES
                + " WHERE \"db\" = ? AND \"name\" = ?")) {
            q.setString(1, table.database());
            q.setString(2, table.name());
            try (ResultSet rs = q.executeQuery()) {
                if (rs.next() && rs.getLong(1) == table.tableId()) {
                    created = rs.getString(2);
                }
            }
        }
        try (PreparedStatement p = c.prepareStatement("MERGE INTO " + TABLES
                + " KEY (\"db\", \"name\") VALUES (?, ?, ?, ?, ?)")) {
            p.setString(1, table.database());
            p.setString(2, table.name());
            p.setLong(3, table.tableId());
            p.setString(4, json);
            p.setString(5, created);
            p.executeUpdate();
        }
        idHandedOut(c, table.tableId());
    }

    /** Records a table's new definition after an ALTER (its {@code created} definition stays). */
    static void saveAlteredTable(Connection c, TableSchema table) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("UPDATE " + TABLES + " SET \"definition\" = ?"
                + " WHERE \"db\" = ? AND \"name\" = ?")) {
            p.setString(1, toJson(TableDefinition.of(table)));
            p.setString(2, table.database());
            p.setString(3, table.name());
            p.executeUpdate();
        }
    }

    static void deleteTable(Connection c, TableSchema table) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("DELETE FROM " + TABLES + " WHERE \"db\" = ? AND \"name\" = ?")) {
            p.setString(1, table.database());
            p.setString(2, table.name());
            p.executeUpdate();
        }
    }

    private static void idHandedOut(Connection c, long id) throws SQLException {
        try (Statement s = c.createStatement()) {
            int updated = s.executeUpdate("UPDATE " + IDS + " SET \"next_id\" = GREATEST(\"next_id\", " + (id + 1)
                    + ")");
            if (updated == 0) {
                s.executeUpdate("INSERT INTO " + IDS + " VALUES (" + (id + 1) + ")");
            }
        }
    }

    /**
     * Reads the kept catalog.
     *
     * @throws StoreException if a stored definition cannot be read (names the table)
     */
    static CatalogSnapshot load(Connection c) throws SQLException {
        List<DatabaseInfo> databases = new ArrayList<>();
        List<CatalogSnapshot.StoredTable> tables = new ArrayList<>();
        long nextId = InMemoryCatalog.FIRST_ID;
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT \"name\", \"id\" FROM " + DATABASES + " ORDER BY \"id\"")) {
                while (rs.next()) {
                    databases.add(new DatabaseInfo(rs.getString(1), rs.getLong(2)));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT \"db\", \"name\", \"id\", \"definition\", \"created\" FROM "
                    + TABLES + " ORDER BY \"id\"")) {
                while (rs.next()) {
                    String qualified = rs.getString(1) + "." + rs.getString(2);
                    TableDefinition now = fromJson(rs.getString(4), qualified);
                    tables.add(new CatalogSnapshot.StoredTable(new TableSchema(rs.getString(1), rs.getString(2),
                            rs.getLong(3), now.keysType(), now.columns(), now.keyColumns()),
                            fromJson(rs.getString(5), qualified)));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT MAX(\"next_id\") FROM " + IDS)) {
                if (rs.next() && rs.getObject(1) != null) {
                    nextId = Math.max(nextId, rs.getLong(1));
                }
            }
        }
        return new CatalogSnapshot(databases, tables, nextId);
    }

    /**
     * Compares a kept table's columns with its H2 table's (absent H2 table: nothing to compare, it is recreated).
     *
     * @throws StoreException when they differ, naming the table and both column lists
     */
    static void checkColumns(Connection writer, TableSchema table) throws SQLException {
        List<String> inFile = new ArrayList<>();
        try (PreparedStatement p = writer.prepareStatement("SELECT COLUMN_NAME FROM INFORMATION_SCHEMA.COLUMNS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            p.setString(1, table.database());
            p.setString(2, table.name());
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    inFile.add(rs.getString(1));
                }
            }
        }
        List<String> kept = table.columns().stream().map(c -> H2Sql.columnName(c.name())).toList();
        if (!inFile.isEmpty() && !inFile.equals(kept)) {
            throw new StoreException("table " + table.qualifiedName() + " has columns " + inFile + " in the file but "
                    + kept + " in the kept catalog (the emulator stopped during a schema change): drop the table"
                    + " or the file");
        }
    }

    static String toJson(TableDefinition definition) {
        ObjectNode root = JSON.createObjectNode();
        root.put("keysType", definition.keysType().name());
        ArrayNode keys = root.putArray("keyColumns");
        definition.keyColumns().forEach(keys::add);
        ArrayNode columns = root.putArray("columns");
        for (ColumnSchema column : definition.columns()) {
            ObjectNode c = columns.addObject();
            c.put("name", column.name());
            c.put("kind", column.type().kind().name());
            c.put("length", column.type().length());
            c.put("precision", column.type().precision());
            c.put("scale", column.type().scale());
            c.put("nullable", column.nullable());
            if (column.defaultValue() != null) {
                c.put("default", column.defaultValue());
            }
        }
        return root.toString();
    }

    static TableDefinition fromJson(String json, String table) {
        try {
            JsonNode root = JSON.readTree(json);
            List<String> keys = new ArrayList<>();
            root.get("keyColumns").forEach(k -> keys.add(k.asText()));
            List<ColumnSchema> columns = new ArrayList<>();
            for (JsonNode c : root.get("columns")) {
                ColumnType type = new ColumnType(ColumnType.Kind.valueOf(c.get("kind").asText()),
                        c.get("length").asInt(), c.get("precision").asInt(), c.get("scale").asInt());
                columns.add(new ColumnSchema(c.get("name").asText(), type, c.get("nullable").asBoolean(),
                        c.hasNonNull("default") ? c.get("default").asText() : null));
            }
            return new TableDefinition(KeysType.valueOf(root.get("keysType").asText()), columns, keys);
        } catch (IOException | RuntimeException e) {
            throw new StoreException("the stored definition of table " + table + " cannot be read: " + e, e);
        }
    }
}
