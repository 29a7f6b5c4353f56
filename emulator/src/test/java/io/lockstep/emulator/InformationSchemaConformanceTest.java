package io.lockstep.emulator;

import static io.lockstep.emulator.TestSchema.h;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The query port's {@code information_schema} as StarRocks lays it out (fe-core
 * {@code com/starrocks/catalog/system/information/ColumnsSystemTable.java}, {@code TablesSystemTable.java},
 * {@code SchemataSystemTable.java}, {@code StatisticsSystemTable.java}; values as be
 * {@code exec/schema_scanner/schema_columns_scanner.cpp} fills them), read by the clients that depend on it: the
 * StarRocks Flink connector's table check ({@code StarRocksQueryVisitor#getTableColumnsMetaData} in
 * StarRocks/starrocks-connector-for-apache-flink) and MySQL Connector/J 9's {@code DatabaseMetaData}.
 */
class InformationSchemaConformanceTest {
    @RegisterExtension
    static final StarRocksEmulatorExtension SR = new StarRocksEmulatorExtension(StarRocksEmulator.builder()
            .user("loader", "pw-1")
            .ddl("CREATE DATABASE shop; CREATE TABLE shop.orders (order_id BIGINT NOT NULL, status VARCHAR(32),"
                    + " amount DECIMAL(10, 2), placed DATETIME, flag BOOLEAN) PRIMARY KEY (order_id)"
                    + " DISTRIBUTED BY HASH(order_id) BUCKETS 1;"
                    + " CREATE TABLE shop.Events (id INT NOT NULL, note STRING) DUPLICATE KEY (id)"
                    + " DISTRIBUTED BY HASH(id) BUCKETS 1"));

    static Connection connect(String database) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "loader");
        props.setProperty("password", "pw-1");
        props.setProperty("connectTimeout", "10000");
        props.setProperty("socketTimeout", "30000");
        return DriverManager.getConnection(SR.emulator().jdbcUrl() + "/" + database, props);
    }

    static List<List<String>> rows(ResultSet rs) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            List<String> row = new ArrayList<>();
            for (int i = 1; i <= columns; i++) {
                row.add(rs.getString(i));
            }
            rows.add(row);
        }
        return rows;
    }

    static List<List<String>> rows(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            return rows(rs);
        }
    }

    /** The StarRocks Flink connector's check of the sink table, statement for statement. */
    @Test
    void theStarRocksConnectorsTableCheckReadsKeysTypesAndSizes() throws Exception {
        try (Connection c = connect("shop");
             PreparedStatement ps = c.prepareStatement("select `COLUMN_NAME`, `ORDINAL_POSITION`, `COLUMN_KEY`,"
                     + " `DATA_TYPE`, `COLUMN_SIZE`, `DECIMAL_DIGITS` from `information_schema`.`COLUMNS`"
                     + " where `TABLE_SCHEMA`=? and `TABLE_NAME`=?;")) {
            ps.setString(1, "shop");
            ps.setString(2, "orders");
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData meta = rs.getMetaData();
                assertThat(meta.getColumnLabel(1)).isEqualTo("COLUMN_NAME");
                assertThat(meta.getColumnType(2)).isEqualTo(Types.BIGINT);
                assertThat(meta.getColumnType(5)).isEqualTo(Types.BIGINT);
                assertThat(rows(rs)).containsExactly(
                        Arrays.asList("order_id", "1", "PRI", "bigint", "19", "0"),
                        Arrays.asList("status", "2", "", "varchar", "32", null),
                        Arrays.asList("amount", "3", "", "decimal", "10", "2"),
                        Arrays.asList("placed", "4", "", "datetime", "19", null),
                        Arrays.asList("flag", "5", "", "tinyint", "1", "0"));
            }
            ps.setString(2, "Events");
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rows(rs)).extracting(r -> r.get(0) + ":" + r.get(2) + ":" + r.get(3))
                        .containsExactly("id:DUP:int", "note::varchar");
            }
        }
    }

    @Test
    void connectorJDatabaseMetaDataReadsTablesColumnsAndPrimaryKeys() throws Exception {
        try (Connection c = connect("shop")) {
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getTables("shop", null, "%", null)) {
                List<String> tables = new ArrayList<>();
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_NAME") + ":" + rs.getString("TABLE_TYPE") + ":"
                            + rs.getString("TABLE_CAT"));
                }
                assertThat(tables).containsExactly("Events:TABLE:shop", "orders:TABLE:shop");
            }
            try (ResultSet rs = md.getTables("shop", null, "ord%", new String[] {"TABLE"})) {
                assertThat(rows(rs)).extracting(r -> r.get(2)).containsExactly("orders");
            }
            try (ResultSet rs = md.getIndexInfo("shop", null, "orders", true, false)) {
                assertThat(rows(rs)).extracting(r -> r.get(5) + ":" + r.get(8)).containsExactly("PRIMARY:order_id");
            }
            try (ResultSet rs = md.getColumns("shop", null, "orders", "%")) {
                List<String> columns = new ArrayList<>();
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME") + ":" + rs.getInt("DATA_TYPE") + ":"
                            + rs.getString("TYPE_NAME") + ":" + rs.getInt("COLUMN_SIZE") + ":"
                            + rs.getString("DECIMAL_DIGITS") + ":" + rs.getInt("NULLABLE"));
                }
                assertThat(columns).containsExactly(
                        "order_id:" + Types.BIGINT + ":BIGINT:19:null:0",
                        "status:" + Types.VARCHAR + ":VARCHAR:32:null:1",
                        "amount:" + Types.DECIMAL + ":DECIMAL:10:2:1",
                        "placed:" + Types.TIMESTAMP + ":DATETIME:19:null:1",
                        "flag:" + Types.BIT + ":BIT:1:null:1");
            }
            try (ResultSet rs = md.getPrimaryKeys("shop", null, "orders")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("COLUMN_NAME")).isEqualTo("order_id");
                assertThat(rs.getInt("KEY_SEQ")).isEqualTo(1);
                assertThat(rs.next()).isFalse();
            }
            try (ResultSet rs = md.getPrimaryKeys("shop", null, "Events")) {
                assertThat(rs.next()).as("a DUPLICATE KEY table has no primary key").isFalse();
            }
            try (ResultSet rs = md.getCatalogs()) {
                assertThat(rows(rs)).containsExactly(List.of("information_schema"), List.of("shop"));
            }
        }
    }

    @Test
    void schemaAndTableNamesAreCaseSensitiveAndInformationSchemaNamesAreNot() throws Exception {
        try (Connection c = connect("shop"); Statement s = c.createStatement()) {
            assertThat(rows(s, "SELECT schema_name FROM Information_Schema.SCHEMATA ORDER BY 1"))
                    .containsExactly(List.of("information_schema"), List.of("shop"));
            assertThat(rows(s, "SELECT `table_name` FROM `INFORMATION_SCHEMA`.`Tables`"
                    + " WHERE `Table_Schema` = 'shop' ORDER BY 1"))
                    .containsExactly(List.of("Events"), List.of("orders"));
            assertThat(rows(s, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'SHOP'"))
                    .isEmpty();
            assertThat(rows(s, "SELECT COUNT(*) FROM `shop`.`Events`")).containsExactly(List.of("0"));
            assertThatThrownBy(() -> s.executeQuery("SELECT COUNT(*) FROM `SHOP`.`events`"))
                    .isInstanceOf(SQLException.class);
            assertThat(rows(s, "SELECT TABLE_MODEL, PRIMARY_KEY FROM information_schema.tables_config"
                    + " WHERE TABLE_NAME = 'orders'")).containsExactly(List.of("PRIMARY_KEYS", "order_id"));
            s.execute("USE information_schema");
            assertThat(rows(s, "SELECT COUNT(*) FROM views")).containsExactly(List.of("0"));
            assertThat(rows(s, "SELECT DATABASE(), @@version")).containsExactly(List.of("information_schema",
                    "8.0.33"));
            assertThat(rows(s, "SHOW TABLES")).contains(List.of("columns"), List.of("statistics"));
        }
    }

    @Test
    void informationSchemaLoadsListsStreamLoadTransactions() throws Exception {
        try (SrHttp http = new SrHttp(SR.emulator().feUrl()).as("loader", "pw-1")) {
            assertThat(http.txn("begin", h("label", "is-open", "db", "shop", "table", "orders")).srStatus())
                    .isEqualTo("OK");
            try (Connection c = connect("shop"); Statement s = c.createStatement()) {
                assertThat(rows(s, "SELECT LABEL, DB_NAME, TABLE_NAME, STATE, TYPE FROM information_schema.loads"
                        + " WHERE LABEL = 'is-open'"))
                        .containsExactly(List.of("is-open", "shop", "orders", "LOADING", "STREAM_LOAD"));
                List<List<String>> stream = rows(s, "SHOW STREAM LOAD FROM shop");
                assertThat(stream).extracting(r -> r.get(0) + ":" + r.get(6)).contains("is-open:LOADING");
            }
            assertThat(http.txn("rollback", h("label", "is-open", "db", "shop", "table", "orders")).srStatus())
                    .isEqualTo("OK");
        }
    }

    @Test
    void emptyResultsReportTheirRealColumnTypesAndShowProcIsAllVarchar() throws Exception {
        try (Connection c = connect("shop"); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT order_id, status, amount, placed, COUNT(*) OVER () AS n"
                    + " FROM orders WHERE order_id < 0")) {
                ResultSetMetaData meta = rs.getMetaData();
                assertThat(rs.next()).isFalse();
                assertThat(List.of(meta.getColumnType(1), meta.getColumnType(2), meta.getColumnType(3),
                        meta.getColumnType(4), meta.getColumnType(5)))
                        .containsExactly(Types.BIGINT, Types.VARCHAR, Types.DECIMAL, Types.TIMESTAMP, Types.BIGINT);
                assertThat(meta.getScale(3)).isEqualTo(2);
            }
            for (String sql : List.of("SHOW PROC '/transactions'", "SHOW PROC '/dbs'", "SHOW PROC '/backends'")) {
                try (ResultSet rs = s.executeQuery(sql)) {
                    ResultSetMetaData meta = rs.getMetaData();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        assertThat(meta.getColumnType(i)).as(sql + " column " + meta.getColumnLabel(i))
                                .isEqualTo(Types.VARCHAR);
                    }
                }
            }
        }
    }
}
