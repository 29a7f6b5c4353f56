package io.lockstep.e2e.create;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.create.JdbcSourceCatalog;
import io.lockstep.app.create.SourceCatalogException;
import io.lockstep.app.create.SourceColumn;
import io.lockstep.app.create.SourceTable;
import io.lockstep.e2e.source.MariaDbServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link JdbcSourceCatalog} on a real MariaDB 10.11 (the private server of {@link MariaDbServer}, read through MySQL
 * Connector/J): a table with a column of each kind table creation maps, a table without a primary key, a second
 * database, a view, and a {@code jdbc:mariadb:} URL.
 */
class JdbcSourceCatalogMariaDbIT {

    private static final String KINDS = "CREATE TABLE kinds (id INT UNSIGNED NOT NULL, code VARCHAR(12) NOT NULL,"
            + " c_tinyint TINYINT, c_bool TINYINT(1), c_smallint SMALLINT NOT NULL, c_mediumint MEDIUMINT,"
            + " c_bigint BIGINT UNSIGNED, c_zerofill INT(6) UNSIGNED ZEROFILL, c_decimal DECIMAL(12,3), c_float FLOAT,"
            + " c_double DOUBLE, c_char CHAR(3), c_varchar VARCHAR(40), c_tinytext TINYTEXT, c_text TEXT,"
            + " c_mediumtext MEDIUMTEXT, c_longtext LONGTEXT, c_date DATE, c_datetime DATETIME, c_datetime3 DATETIME(3),"
            + " c_timestamp TIMESTAMP(6) NULL, c_time TIME(2), c_year YEAR, c_json JSON,"
            + " c_enum ENUM('S', 'M', 'it''s XL'), c_set SET('a', 'b', 'c'), c_bit BIT(5), c_binary BINARY(4),"
            + " c_varbinary VARBINARY(10), c_blob BLOB, c_longblob LONGBLOB, PRIMARY KEY (code, id))";

    private static MariaDbServer mariadb;

    @BeforeAll
    static void start() throws Exception {
        mariadb = MariaDbServer.start();
        mariadb.execute(List.of(KINDS, "CREATE TABLE notes (body TEXT, at DATETIME(6))",
                "CREATE VIEW kinds_view AS SELECT id, code FROM kinds"));
        try (Connection root = DriverManager.getConnection(mariadb.url(""), "root", "");
                Statement statement = root.createStatement()) {
            statement.execute("CREATE DATABASE inventory");
            statement.execute("CREATE TABLE inventory.stock (sku CHAR(8) PRIMARY KEY, qty INT NOT NULL,"
                    + " twice INT AS (qty * 2) VIRTUAL, thrice INT AS (qty * 3) PERSISTENT)");
            statement.execute("GRANT SELECT ON inventory.* TO '" + MariaDbServer.USER + "'@'%'");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (mariadb != null) {
            mariadb.close();
        }
    }

    @Test
    void describesEachKindOfColumnAndTheKeyInKeyOrder() {
        try (JdbcSourceCatalog catalog = JdbcSourceCatalog.open(mariadb.url(""), MariaDbServer.USER,
                MariaDbServer.PASSWORD)) {
            SourceTable kinds = catalog.table(MariaDbServer.DATABASE, "kinds");

            assertThat(kinds.qualifiedName()).isEqualTo("shop.kinds");
            assertThat(kinds.primaryKey()).containsExactly("code", "id");
            assertThat(kinds.columns()).hasSize(31).extracting(SourceColumn::name)
                    .startsWith("id", "code", "c_tinyint").endsWith("c_blob", "c_longblob");
            assertColumn(kinds, "id", "int unsigned", 10, null, false);
            assertColumn(kinds, "code", "varchar", 12, null, false);
            assertColumn(kinds, "c_tinyint", "tinyint", 4, null, true);
            assertColumn(kinds, "c_bool", "tinyint", 1, null, true);
            assertColumn(kinds, "c_smallint", "smallint", 6, null, false);
            assertColumn(kinds, "c_mediumint", "mediumint", 9, null, true);
            assertColumn(kinds, "c_bigint", "bigint unsigned", 20, null, true);
            assertColumn(kinds, "c_zerofill", "int unsigned", 6, null, true);
            assertColumn(kinds, "c_decimal", "decimal", 12, 3, true);
            assertColumn(kinds, "c_float", "float", null, null, true);
            assertColumn(kinds, "c_double", "double", null, null, true);
            assertColumn(kinds, "c_char", "char", 3, null, true);
            assertColumn(kinds, "c_varchar", "varchar", 40, null, true);
            assertColumn(kinds, "c_tinytext", "tinytext", null, null, true);
            assertColumn(kinds, "c_text", "text", null, null, true);
            assertColumn(kinds, "c_mediumtext", "mediumtext", null, null, true);
            assertColumn(kinds, "c_longtext", "longtext", null, null, true);
            assertColumn(kinds, "c_date", "date", null, null, true);
            assertColumn(kinds, "c_datetime", "datetime", 0, null, true);
            assertColumn(kinds, "c_datetime3", "datetime", 3, null, true);
            assertColumn(kinds, "c_timestamp", "timestamp", 6, null, true);
            assertColumn(kinds, "c_time", "time", 2, null, true);
            assertColumn(kinds, "c_year", "year", null, null, true);
            assertColumn(kinds, "c_json", "json", null, null, true);
            assertColumn(kinds, "c_enum", "enum", "it's XL".length(), null, true);
            assertColumn(kinds, "c_set", "set", "a,b,c".length(), null, true);
            assertColumn(kinds, "c_bit", "bit", 5, null, true);
            assertColumn(kinds, "c_binary", "binary", 4, null, true);
            assertColumn(kinds, "c_varbinary", "varbinary", 10, null, true);
            assertColumn(kinds, "c_blob", "blob", null, null, true);
            assertColumn(kinds, "c_longblob", "longblob", null, null, true);
            assertThat(column(kinds, "c_enum").parameters()).containsEntry("allowed", "S,M,it's XL")
                    .containsEntry("column_type", "enum('S','M','it''s XL')");
            assertThat(column(kinds, "c_set").parameters()).containsEntry("allowed", "a,b,c");
            assertThat(column(kinds, "c_bool").parameters()).containsEntry("column_type", "tinyint(1)");
        }
    }

    @Test
    void listsTheBaseTablesOfEveryDatabaseTheFilterIncludesThroughAMariaDbUrl() {
        String url = mariadb.url("").replace("jdbc:mysql:", "jdbc:mariadb:");
        try (JdbcSourceCatalog catalog = JdbcSourceCatalog.open(url, MariaDbServer.USER, MariaDbServer.PASSWORD)) {
            assertThat(catalog.tables(name -> true)).extracting(SourceTable::qualifiedName)
                    .containsExactly("inventory.stock", "shop.kinds", "shop.notes");
            List<SourceTable> some = catalog.tables(name -> !name.equals("shop.kinds"));

            assertThat(some).extracting(SourceTable::qualifiedName).containsExactly("inventory.stock", "shop.notes");
            assertThat(some.get(0).primaryKey()).containsExactly("sku");
            assertThat(some.get(0).columns()).extracting(c -> c.parameters().get("generated"))
                    .containsExactly(null, null, "VIRTUAL", "STORED");
            assertThat(some.get(1).primaryKey()).isEmpty();
            assertThat(some.get(1).columns()).extracting(SourceColumn::sourceType, SourceColumn::length)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("text", null),
                            org.assertj.core.groups.Tuple.tuple("datetime", 6));
            assertThat(catalog.table(MariaDbServer.DATABASE, "kinds_view")).isNull();
            assertThat(catalog.table("mysql", "user")).isNull();
            assertThat(catalog.table("inventory", "missing")).isNull();
        }
    }

    @Test
    void aFailedConnectionIsOneLineNamingTheUrlWithoutPassword() {
        String url = mariadb.url(MariaDbServer.DATABASE) + "&password=url-secret";
        assertThatThrownBy(() -> JdbcSourceCatalog.open(url, MariaDbServer.USER, "wrong-secret"))
                .isInstanceOf(SourceCatalogException.class)
                .hasMessageStartingWith("cannot connect to the source database jdbc:mysql://127.0.0.1:"
                        + mariadb.port() + "/shop?")
                .hasMessageContaining("&password=*** as user 'lockstep'")
                .hasMessageContaining("Access denied")
                .hasMessageNotContaining("url-secret")
                .hasMessageNotContaining("wrong-secret")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    private static void assertColumn(SourceTable table, String name, String sourceType, Integer length, Integer scale,
            boolean nullable) {
        assertThat(column(table, name)).as(name).extracting(SourceColumn::sourceType, SourceColumn::length,
                SourceColumn::scale, SourceColumn::nullable).containsExactly(sourceType, length, scale, nullable);
    }

    private static SourceColumn column(SourceTable table, String name) {
        return JdbcSourceCatalogPostgresIT.column(table, name);
    }
}
