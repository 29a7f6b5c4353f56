package io.lockstep.emulator.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class InMemoryCatalogTest {

    /** The demo's schema, read from the repository so the test follows it. */
    static String shopDdl() throws IOException {
        return Files.readString(Path.of("..", "examples", "shop.sql"));
    }

    @Test
    void createsTheShopSchema() throws Exception {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.execute(shopDdl());
        DatabaseInfo shop = catalog.database("shop").orElseThrow();
        assertThat(shop.id()).isEqualTo(InMemoryCatalog.FIRST_ID);
        assertThat(catalog.tables()).extracting(TableSchema::name)
                .containsExactly("customers", "orders", "order_items", "payments");
        assertThat(catalog.tables()).extracting(TableSchema::tableId).containsExactly(10002L, 10003L, 10004L, 10005L);
        TableSchema items = catalog.table("shop", "order_items").orElseThrow();
        assertThat(items.keysType()).isEqualTo(KeysType.PRIMARY_KEYS);
        assertThat(items.keyColumns()).containsExactly("order_id", "line_no");
        assertThat(items.columns().get(4))
                .isEqualTo(new ColumnSchema("price", new ColumnType(ColumnType.Kind.DECIMAL, -1, 12, 2), true, null));
        assertThat(catalog.table("shop", "ORDERS")).as("table names are case-sensitive").isEmpty();
    }

    @Test
    void ifNotExistsMakesTheDdlRepeatable() throws Exception {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.execute(shopDdl());
        catalog.execute(shopDdl());
        assertThat(catalog.tables()).hasSize(4);
    }

    @Test
    void useSelectsTheDatabaseOfUnqualifiedTables() throws Exception {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.execute("CREATE DATABASE a; USE a; CREATE TABLE t (k INT) DUPLICATE KEY (k);");
        assertThat(catalog.table("a", "t")).isPresent();
    }

    @Test
    void schemaChangesReachTheListenersInOrder() throws Exception {
        InMemoryCatalog catalog = new InMemoryCatalog();
        List<String> events = new ArrayList<>();
        catalog.addListener(new CatalogListener() {
            @Override
            public void databaseCreated(DatabaseInfo database) {
                events.add("db+ " + database.name());
            }

            @Override
            public void tableCreated(TableSchema table) {
                events.add("t+ " + table.qualifiedName());
            }

            @Override
            public void tableDropped(TableSchema table) {
                events.add("t- " + table.qualifiedName());
            }

            @Override
            public void databaseDropped(DatabaseInfo database) {
                events.add("db- " + database.name());
            }

            @Override
            public void tableTruncated(TableSchema table) {
                events.add("truncate " + table.qualifiedName());
            }

            @Override
            public void tableAltered(TableSchema before, TableSchema after) {
                events.add("alter " + after.qualifiedName() + " " + before.columns().size() + "->"
                        + after.columns().size());
            }
        });
        catalog.execute("CREATE DATABASE a; CREATE TABLE a.t (k INT NOT NULL, v INT) PRIMARY KEY (k);"
                + " CREATE TABLE a.u (k INT) DUPLICATE KEY (k)");
        catalog.execute("ALTER TABLE t ADD COLUMN w VARCHAR(10) DEFAULT 'x'; ALTER TABLE t DROP COLUMN v;"
                + " TRUNCATE TABLE t; DROP TABLE IF EXISTS nope; DROP TABLE u", "a");
        TableSchema t = catalog.table("a", "t").orElseThrow();
        assertThat(t.columns()).extracting(ColumnSchema::name).containsExactly("k", "w");
        assertThat(t.tableId()).as("an altered table keeps its id").isEqualTo(10002L);
        catalog.execute("DROP DATABASE a; DROP DATABASE IF EXISTS a");
        assertThat(catalog.databases()).isEmpty();
        assertThat(events).containsExactly("db+ a", "t+ a.t", "t+ a.u", "alter a.t 2->3", "alter a.t 3->2",
                "truncate a.t", "t- a.u", "t- a.t", "db- a");
    }

    @Test
    void schemaChangesThatCannotApplyNameTheProblem() throws Exception {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.execute("CREATE DATABASE a; CREATE TABLE a.t (k INT NOT NULL, v INT) PRIMARY KEY (k)");
        assertThatThrownBy(() -> catalog.execute("ALTER TABLE a.t ADD COLUMN n INT NOT NULL"))
                .hasMessageContaining("new column 'n' is NOT NULL and has no DEFAULT");
        assertThatThrownBy(() -> catalog.execute("ALTER TABLE a.t ADD COLUMN n INT AFTER k"))
                .hasMessageContaining("AFTER is not supported by the emulator");
        assertThatThrownBy(() -> catalog.execute("ALTER TABLE a.t ADD COLUMN v INT"))
                .hasMessage("DDL statement 1 (line 1): Duplicate column name 'v'");
        assertThatThrownBy(() -> catalog.execute("ALTER TABLE a.t DROP COLUMN k"))
                .hasMessage("DDL statement 1 (line 1): Can not drop key column 'k' of table a.t");
        assertThatThrownBy(() -> catalog.execute("ALTER TABLE a.t DROP COLUMN z"))
                .hasMessage("DDL statement 1 (line 1): Column 'z' does not exist in table a.t");
        assertThatThrownBy(() -> catalog.execute("TRUNCATE TABLE a.nope"))
                .hasMessage("DDL statement 1 (line 1): Unknown table 'a.nope'");
        assertThatThrownBy(() -> catalog.execute("DROP TABLE t"))
                .hasMessageContaining("No database selected");
        assertThatThrownBy(() -> catalog.execute("DROP DATABASE b"))
                .hasMessage("DDL statement 1 (line 1): Can't drop database 'b'; database doesn't exist");
        assertThat(catalog.table("a", "t").orElseThrow().columns()).hasSize(2);
    }

    @Test
    void reportsCatalogErrorsWithStatementAndLine() throws Exception {
        InMemoryCatalog catalog = new InMemoryCatalog();
        assertThatThrownBy(() -> catalog.execute("CREATE TABLE t (k INT) DUPLICATE KEY (k)"))
                .isInstanceOf(DdlException.class)
                .hasMessage("DDL statement 1 (line 1): No database selected: qualify the table as db.t or put USE db"
                        + " before it");
        assertThatThrownBy(() -> catalog.execute("CREATE DATABASE a;\nCREATE TABLE b.t (k INT) DUPLICATE KEY (k)"))
                .hasMessage("DDL statement 2 (line 2): Unknown database 'b'");
        assertThat(catalog.database("a")).as("statements before the failing one stay applied").isPresent();
        assertThatThrownBy(() -> catalog.execute("\nCREATE DATABASE a"))
                .hasMessage("DDL statement 1 (line 2): Can't create database 'a'; database exists");
        catalog.execute("CREATE TABLE a.t (k INT) DUPLICATE KEY (k)");
        assertThatThrownBy(() -> catalog.execute("CREATE TABLE a.t (k INT) DUPLICATE KEY (k)"))
                .hasMessage("DDL statement 1 (line 1): Table 't' already exists");
        assertThatThrownBy(() -> catalog.execute("USE nowhere"))
                .hasMessage("DDL statement 1 (line 1): Unknown database 'nowhere'");
    }

    @Test
    void javaApiCreatesDatabasesAndValidatesTables() throws Exception {
        InMemoryCatalog catalog = new InMemoryCatalog();
        DatabaseInfo db = catalog.createDatabase("d");
        assertThat(catalog.createDatabase("d")).isEqualTo(db);
        ColumnSchema k = new ColumnSchema("k", ColumnType.of(ColumnType.Kind.BIGINT), false, null);
        ColumnSchema v = new ColumnSchema("v", ColumnType.of(ColumnType.Kind.INT), true, null);
        TableSchema created = catalog.createTable(
                new TableSchema("d", "t", 0, KeysType.PRIMARY_KEYS, List.of(k, v), List.of("k")));
        assertThat(created.tableId()).isEqualTo(db.id() + 1);
        assertThat(catalog.table("d", "t")).contains(created);
        assertThatThrownBy(() -> catalog.createTable(
                new TableSchema("d", "u", 0, KeysType.PRIMARY_KEYS, List.of(v, k), List.of("k"))))
                .isInstanceOf(DdlException.class)
                .hasMessage("table d.u: key columns must be the first columns of the table, in key order: key column"
                        + " 1 is 'k' but column 1 is 'v'");
        assertThatThrownBy(() -> catalog.createTable(
                new TableSchema("nope", "u", 0, KeysType.PRIMARY_KEYS, List.of(k), List.of("k"))))
                .hasMessage("Unknown database 'nope'");
    }

    @Test
    void listenersSeeDatabasesAndTablesInCreationOrder() throws Exception {
        InMemoryCatalog catalog = new InMemoryCatalog();
        List<String> events = new ArrayList<>();
        catalog.addListener(new CatalogListener() {
            @Override
            public void databaseCreated(DatabaseInfo database) {
                events.add("db " + database.name());
            }

            @Override
            public void tableCreated(TableSchema table) {
                events.add("table " + table.qualifiedName());
            }
        });
        catalog.execute(shopDdl());
        assertThat(events).containsExactly("db shop", "table shop.customers", "table shop.orders",
                "table shop.order_items", "table shop.payments");
    }

    @Test
    void concurrentDdlGivesUniqueIdsAndListenersSeeEveryTable() throws Exception {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.createDatabase("d");
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        catalog.addListener(new CatalogListener() {
            @Override
            public void databaseCreated(DatabaseInfo database) {
            }

            @Override
            public void tableCreated(TableSchema table) {
                seen.add(table.name());
            }
        });
        ExecutorService executor = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int thread = 0; thread < 4; thread++) {
                int t = thread;
                futures.add(executor.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        catalog.execute("CREATE TABLE d.t" + t + "_" + i + " (k INT) DUPLICATE KEY (k)");
                        assertThat(catalog.table("d", "t" + t + "_" + i)).isPresent();
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get(30, TimeUnit.SECONDS);
            }
        } finally {
            executor.shutdownNow();
        }
        assertThat(catalog.tables()).hasSize(200);
        assertThat(catalog.tables()).extracting(TableSchema::tableId).doesNotHaveDuplicates();
        assertThat(seen).hasSize(200).doesNotHaveDuplicates();
    }

    private static final String EVENTS = "CREATE TABLE lab.events (id BIGINT NOT NULL, kind VARCHAR(16))"
            + " PRIMARY KEY (id) DISTRIBUTED BY HASH(id)";

    /** A catalog as a restarted file store gives it back: lab.events created, then ALTERed. */
    private static InMemoryCatalog restored() throws DdlException {
        InMemoryCatalog before = new InMemoryCatalog();
        before.execute("CREATE DATABASE lab; " + EVENTS);
        TableDefinition created = TableDefinition.of(before.table("lab", "events").orElseThrow());
        before.execute("ALTER TABLE lab.events ADD COLUMN note STRING; DROP DATABASE lab; CREATE DATABASE lab; "
                + EVENTS + "; ALTER TABLE lab.events ADD COLUMN note STRING");
        TableSchema now = before.table("lab", "events").orElseThrow();
        InMemoryCatalog after = new InMemoryCatalog();
        after.restore(new CatalogSnapshot(before.databases(),
                List.of(new CatalogSnapshot.StoredTable(now, created)), now.tableId() + 3));
        return after;
    }

    @Test
    void restoreKeepsIdsAndHandsOutOnlyLaterOnes() throws Exception {
        InMemoryCatalog catalog = restored();
        TableSchema events = catalog.table("lab", "events").orElseThrow();
        catalog.execute("CREATE DATABASE fresh");
        assertThat(catalog.database("fresh").orElseThrow().id()).isEqualTo(events.tableId() + 3);
        assertThatThrownBy(() -> catalog.restore(CatalogSnapshot.empty()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("restore needs an empty catalog without listeners");
    }

    @Test
    void theStartUpDdlSkipsWhatItFindsAndRefusesADifferentDefinition() throws Exception {
        InMemoryCatalog catalog = restored();
        catalog.executeAtStart("CREATE DATABASE lab; " + EVENTS);
        assertThat(catalog.table("lab", "events").orElseThrow().columnIndex("note")).as("the ALTER is kept")
                .isEqualTo(2);
        assertThatThrownBy(() -> catalog.executeAtStart("CREATE TABLE IF NOT EXISTS lab.events (id BIGINT NOT NULL,"
                + " kind VARCHAR(16)) DUPLICATE KEY (id)"))
                .isInstanceOf(DdlException.class)
                .hasMessageContaining("table lab.events differs from the one stored with the data (stored vs this DDL:"
                        + " key type: PRIMARY_KEYS vs DUPLICATE_KEYS)");
        assertThatThrownBy(() -> catalog.execute("CREATE DATABASE lab")).as("only the start-up DDL is lenient")
                .isInstanceOf(DdlException.class).hasMessageContaining("database exists");
    }
}
