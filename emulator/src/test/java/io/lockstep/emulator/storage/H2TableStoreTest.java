package io.lockstep.emulator.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.emulator.catalog.InMemoryCatalog;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.load.RowChange;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class H2TableStoreTest {
    private InMemoryCatalog catalog;
    private H2TableStore store;

    @BeforeEach
    void setUp() throws Exception {
        catalog = new InMemoryCatalog();
        store = H2TableStore.attachedTo(catalog);
        catalog.execute("""
                CREATE DATABASE shop;
                CREATE TABLE shop.orders (order_id BIGINT NOT NULL, status VARCHAR(32), total DECIMAL(12, 2))
                  PRIMARY KEY (order_id);
                CREATE TABLE shop.events (id INT, `order` VARCHAR(10)) DUPLICATE KEY (id);
                CREATE TABLE shop.all_types (k INT NOT NULL, b BOOLEAN, ti TINYINT, si SMALLINT, bi BIGINT,
                  li LARGEINT, f FLOAT, d DOUBLE, dec DECIMAL(10, 3), c CHAR(4), s STRING, dt DATE, ts DATETIME,
                  j JSON) PRIMARY KEY (k);
                CREATE TABLE shop.big (k INT NOT NULL, v VARCHAR(1048576)) PRIMARY KEY (k);
                """);
    }

    @AfterEach
    void tearDown() {
        store.close();
    }

    private TableSchema table(String name) {
        return catalog.table("shop", name).orElseThrow();
    }

    private static RowChange upsert(Object... values) {
        return new RowChange(values, false);
    }

    private static RowChange delete(Object... values) {
        return new RowChange(values, true);
    }

    @Test
    void upsertsByKeyAndLaterRowsWin() {
        store.publish(1, List.of(new TableChanges(table("orders"), List.of(
                upsert(1L, "new", new BigDecimal("10.00")),
                upsert(2L, "new", new BigDecimal("20.00")),
                upsert(1L, "paid", new BigDecimal("11.00"))))));
        store.publish(2, List.of(new TableChanges(table("orders"), List.of(
                upsert(2L, "shipped", new BigDecimal("20.00"))))));
        QueryResult result = store.query("SELECT order_id, status, total FROM shop.orders ORDER BY order_id");
        assertThat(result.columns()).containsExactly("order_id", "status", "total");
        assertThat(result.rows()).containsExactly(
                List.of(1L, "paid", new BigDecimal("11.00")),
                List.of(2L, "shipped", new BigDecimal("20.00")));
        assertThat(store.rowCount("shop", "orders")).isEqualTo(2);
    }

    @Test
    void deletesByKeyInLoadOrder() {
        store.publish(1, List.of(new TableChanges(table("orders"), List.of(
                upsert(1L, "new", null), upsert(2L, "new", null), upsert(3L, "new", null)))));
        store.publish(2, List.of(new TableChanges(table("orders"), List.of(
                delete(1L, null, null),
                upsert(2L, "gone", null), delete(2L, "ignored", null),
                delete(3L, null, null), upsert(3L, "back", null),
                delete(99L, null, null)))));
        assertThat(store.query("SELECT order_id, status FROM shop.orders").rows())
                .containsExactly(List.of(3L, "back"));
    }

    @Test
    void duplicateKeyTablesKeepEveryRowAndRefuseDeletes() {
        store.publish(1, List.of(new TableChanges(table("events"), List.of(upsert(1, "a"), upsert(1, "a")))));
        assertThat(store.rowCount("shop", "events")).isEqualTo(2);
        assertThat(store.query("SELECT \"order\" FROM shop.events").rows()).containsExactly(List.of("a"), List.of("a"));
        assertThatThrownBy(() -> store.publish(2, List.of(
                new TableChanges(table("orders"), List.of(upsert(7L, "x", null))),
                new TableChanges(table("events"), List.of(delete(1, "a"))))))
                .isInstanceOf(StoreException.class)
                .hasMessage("publish of transaction 2: table shop.events is a DUPLICATE KEY table and cannot take"
                        + " deletes");
        assertThat(store.rowCount("shop", "orders")).as("nothing of the refused transaction is visible").isZero();
    }

    @Test
    void failedPublishLeavesNothingVisible() {
        assertThatThrownBy(() -> store.publish(5, List.of(
                new TableChanges(table("orders"), List.of(upsert(1L, "ok", null))),
                new TableChanges(table("events"), List.of(upsert(1, "much too long for ten"))))))
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("publish of transaction 5 failed on table shop.events; nothing of it is"
                        + " visible: ");
        assertThat(store.rowCount("shop", "orders")).isZero();
        assertThat(store.rowCount("shop", "events")).isZero();
    }

    @Test
    void storesEveryTypeFaithfully() {
        store.publish(1, List.of(new TableChanges(table("all_types"), List.of(upsert(1, true, (byte) -7,
                (short) 300, 1L << 40, BigInteger.ONE.shiftLeft(120), 1.5f, 2.25d, new BigDecimal("12.345"),
                "ab", "text", LocalDate.of(2024, 2, 29), LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123456000),
                "{\"a\":1}")))));
        List<Object> row = store.query("SELECT * FROM shop.all_types").rows().get(0);
        // JDBC reads TINYINT and SMALLINT as Integer.
        assertThat(row).containsExactly(1, true, -7, 300, 1L << 40,
                new BigDecimal(BigInteger.ONE.shiftLeft(120)), 1.5f, 2.25d, new BigDecimal("12.345"), "ab", "text",
                LocalDate.of(2024, 2, 29), LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123456000), "{\"a\":1}");
    }

    @Test
    void longestStarRocksVarcharFitsAndReadsBackAsString() {
        String value = "x".repeat(1_048_576);
        store.publish(1, List.of(new TableChanges(table("big"), List.of(upsert(1, value)))));
        assertThat(store.query("SELECT v FROM shop.big").rows()).containsExactly(List.of(value));
    }

    @Test
    void queryIsReadOnly() {
        for (String sql : List.of("DELETE FROM shop.orders", "DROP TABLE shop.orders", "  insert into x values (1)",
                "CALL 1")) {
            assertThatThrownBy(() -> store.query(sql)).isInstanceOf(StoreException.class)
                    .hasMessageStartingWith("the H2 store accepts only read-only SELECT queries, got: ");
        }
        assertThatThrownBy(() -> store.query("SELECT 1; DELETE FROM shop.orders"))
                .isInstanceOf(StoreException.class);
        assertThatThrownBy(() -> store.query("WITH x AS (SELECT 1) SELECT * FROM x; DROP TABLE shop.orders"))
                .isInstanceOf(StoreException.class);
        assertThat(catalog.table("shop", "orders")).isPresent();
        assertThat(store.query("SELECT COUNT(*) AS n FROM shop.orders").rows()).containsExactly(List.of(0L));
    }

    @Test
    void invalidSqlNamesTheQuery() {
        assertThatThrownBy(() -> store.query("SELECT nope FROM shop.orders"))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("[query: SELECT nope FROM shop.orders]");
    }

    @Test
    void unknownTableInPublishIsRejected() throws Exception {
        InMemoryCatalog other = new InMemoryCatalog();
        other.execute("CREATE DATABASE x; CREATE TABLE x.t (k INT) DUPLICATE KEY (k);");
        TableSchema foreign = other.table("x", "t").orElseThrow();
        assertThatThrownBy(() -> store.publish(3, List.of(new TableChanges(foreign, List.of(upsert(1))))))
                .isInstanceOf(StoreException.class)
                .hasMessage("publish of transaction 3: table x.t does not exist in the store");
    }

    @Test
    void closedStoreRefusesWork() {
        store.close();
        store.close();
        assertThatThrownBy(() -> store.publish(1, List.of(new TableChanges(table("orders"), List.of()))))
                .isInstanceOf(StoreException.class).hasMessage("the H2 store is closed");
        assertThatThrownBy(() -> store.query("SELECT 1"))
                .isInstanceOf(StoreException.class).hasMessage("the H2 store is closed");
    }

    @Test
    void closingAFileStoreThatH2AlreadyShutDownIsQuiet(@TempDir Path dir) throws Exception {
        H2TableStore file = H2TableStore.inFile(dir.resolve("emulator"));
        java.util.Properties sa = new java.util.Properties();
        sa.setProperty("user", "SA");
        sa.setProperty("password", "");
        // what H2's own hook does at JVM exit: the database goes before the emulator's shutdown closes the store
        try (java.sql.Connection other = new org.h2.Driver().connect("jdbc:h2:file:"
                + dir.resolve("emulator").toAbsolutePath(), sa);
                java.sql.Statement statement = other.createStatement()) {
            statement.execute("SHUTDOWN");
        }

        file.close();

        assertThat(dir.resolve("emulator.mv.db")).as("the data stays on disk").exists();
    }
}
