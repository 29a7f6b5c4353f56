package io.lockstep.emulator;

import static io.lockstep.emulator.TestSchema.h;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.emulator.SrHttp.Resp;
import io.lockstep.emulator.catalog.DatabaseInfo;
import io.lockstep.emulator.catalog.DdlException;
import io.lockstep.emulator.catalog.KeysType;
import io.lockstep.emulator.catalog.TableSchema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code storage("h2:file:PATH")} the catalog survives a restart with the rows: databases and tables created over
 * the query port, their later ALTERs and DROPs, as {@code --ddl} tables do; the {@code --ddl} given again at restart is
 * checked against the tables it finds (docs: emulator/README.md, "Run it").
 */
class CatalogPersistenceTest {
    private static final String LAB = """
            CREATE TABLE lab.events (id BIGINT NOT NULL, kind VARCHAR(16), amount DECIMAL(10, 2))
            PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1""";

    @TempDir
    Path dir;

    private String storage() {
        return "h2:file:" + dir.resolve("emulator");
    }

    @Test
    void tablesCreatedAlteredAndDroppedOverTheQueryPortAreTheSameAfterARestart() throws Exception {
        List<DatabaseInfo> databasesBefore;
        List<TableSchema> tablesBefore;
        try (StarRocksEmulator first = StarRocksEmulator.builder().storage(storage()).ddl(TestSchema.DDL).build()
                .start(); SrHttp http = new SrHttp(first.feUrl())) {
            try (Connection c = DriverManager.getConnection(first.jdbcUrl(), "root", "");
                 Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE lab");
                s.execute(LAB);
                s.execute("CREATE TABLE lab.gone (id INT NOT NULL) DUPLICATE KEY (id)");
                s.execute("CREATE DATABASE scratch");
                s.execute("DROP DATABASE scratch");
            }
            assertThat(load(http, "lab", "events", "lab-1", "1,open,2.50\n").srStatus()).isEqualTo("Success");
            try (Connection c = DriverManager.getConnection(first.jdbcUrl() + "/lab", "root", "");
                 Statement s = c.createStatement()) {
                s.execute("ALTER TABLE events ADD COLUMN note VARCHAR(40) DEFAULT 'none'");
                s.execute("ALTER TABLE events DROP COLUMN kind");
                s.execute("DROP TABLE gone");
                s.execute("ALTER TABLE shop.orders ADD COLUMN channel VARCHAR(8)");
            }
            first.executeDdl("CREATE TABLE lab.java_api (k INT NOT NULL, v STRING) DUPLICATE KEY (k)");
            databasesBefore = first.catalog().databases();
            tablesBefore = first.catalog().tables();
        }

        try (StarRocksEmulator second = StarRocksEmulator.builder().storage(storage()).ddl(TestSchema.DDL).build()
                .start(); SrHttp http = new SrHttp(second.feUrl())) {
            assertThat(second.catalog().databases()).isEqualTo(databasesBefore);
            assertThat(second.catalog().tables()).isEqualTo(tablesBefore);
            TableSchema events = second.catalog().table("lab", "events").orElseThrow();
            assertThat(events.keysType()).isEqualTo(KeysType.PRIMARY_KEYS);
            assertThat(events.columns()).extracting(c -> c.name()).containsExactly("id", "amount", "note");
            assertThat(second.catalog().table("lab", "gone")).isEmpty();
            assertThat(second.catalog().database("scratch")).isEmpty();

            assertThat(load(http, "lab", "events", "lab-2", "2,7.25,second\n").srStatus()).isEqualTo("Success");
            try (Connection c = DriverManager.getConnection(second.jdbcUrl() + "/lab", "root", "");
                 Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT id, amount, note FROM events ORDER BY id")) {
                List<String> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(rs.getLong(1) + "|" + rs.getBigDecimal(2) + "|" + rs.getString(3));
                }
                assertThat(rows).containsExactly("1|2.50|none", "2|7.25|second");
            }
            Resp sql = http.send("POST", "/api/v1/catalogs/default_catalog/databases/lab/sql",
                    Map.of("Content-Type", "application/json"), "{\"query\": \"SELECT COUNT(*) FROM events\"}", false);
            assertThat(sql.status()).isEqualTo(200);
            assertThat(sql.body()).contains("{\"data\":[2]}");
            // an id handed out before the restart is not handed out again
            second.executeDdl("CREATE DATABASE fresh");
            long highestBefore = tablesBefore.stream().mapToLong(TableSchema::tableId).max().orElseThrow();
            assertThat(second.catalog().database("fresh").orElseThrow().id()).isGreaterThan(highestBefore);
        }
    }

    @Test
    void aDdlThatDeclaresAStoredTableDifferentlyIsRefusedInOneLine() throws Exception {
        String v1 = "CREATE DATABASE lab; " + LAB;
        try (StarRocksEmulator first = StarRocksEmulator.builder().storage(storage()).ddl(v1).build().start()) {
            first.executeDdl("ALTER TABLE lab.events ADD COLUMN later INT");
        }
        // the same DDL again: fine, and the table keeps the column ALTER added
        try (StarRocksEmulator again = StarRocksEmulator.builder().storage(storage()).ddl(v1).build().start()) {
            assertThat(again.catalog().table("lab", "events").orElseThrow().columnIndex("later")).isEqualTo(3);
        }
        String v2 = v1.replace("kind VARCHAR(16)", "kind VARCHAR(32)");
        assertThatThrownBy(() -> StarRocksEmulator.builder().storage(storage()).ddl(v2).build())
                .isInstanceOf(DdlException.class)
                .hasMessage("DDL statement 2 (line 1): table lab.events differs from the one stored with the data"
                        + " (stored vs this DDL: column 2: `kind` VARCHAR(16) NULL vs `kind` VARCHAR(32) NULL); drop"
                        + " the table or the storage file, or make the DDL match");
        // the refused start closed the file: the next start opens it
        try (StarRocksEmulator after = StarRocksEmulator.builder().storage(storage()).build().start()) {
            assertThat(after.catalog().table("lab", "events")).isPresent();
        }
    }

    @Test
    void aDorisUniqueKeyTableCreatedOverTheQueryPortKeepsItsKeyTypeAndRowsAfterARestart() throws Exception {
        String ddl = "CREATE TABLE lab.users (id BIGINT NOT NULL, name VARCHAR(20)) UNIQUE KEY (id)"
                + " DISTRIBUTED BY HASH(id) BUCKETS 1";
        try (DorisEmulator first = DorisEmulator.builder().storage(storage()).build().start();
             DorisHttp http = new DorisHttp(first.feUrl())) {
            try (Connection c = DriverManager.getConnection(first.jdbcUrl(), "root", "");
                 Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE lab");
                s.execute(ddl);
            }
            assertThat(http.load("lab", "users", DorisSchema.csv("u-1"), "1,ann\n").loadStatus())
                    .isEqualTo("Success");
        }
        try (DorisEmulator second = DorisEmulator.builder().storage(storage()).build().start();
             DorisHttp http = new DorisHttp(second.feUrl())) {
            assertThat(second.catalog().table("lab", "users").orElseThrow().keysType())
                    .isEqualTo(KeysType.UNIQUE_KEYS);
            assertThat(http.send("GET", "/api/lab/users/_schema", Map.of(), null, false).json()
                    .at("/data/keysType").asText()).isEqualTo("UNIQUE_KEYS");
            // a delete by key works on the restored UNIQUE KEY table
            assertThat(http.load("lab", "users", DorisSchema.csv("u-2", "hidden_columns", "__DORIS_DELETE_SIGN__"),
                    "1,ann,1\n").loadStatus()).isEqualTo("Success");
            assertThat(second.rowCount("lab", "users")).isZero();
        }
    }

    @Test
    void theNameTheStoreKeepsTheCatalogUnderIsNotADatabaseName() {
        assertThatThrownBy(() -> StarRocksEmulator.builder().ddl("CREATE DATABASE __lockstep_catalog").build())
                .isInstanceOf(DdlException.class)
                .hasMessage("DDL statement 1 (line 1): the database name __lockstep_catalog is reserved by the"
                        + " emulator");
    }

    private static Resp load(SrHttp http, String db, String table, String label, String csv) {
        return http.send("PUT", "/api/" + db + "/" + table + "/_stream_load",
                h("Expect", "100-continue", "label", label, "column_separator", ","), csv, true);
    }
}
