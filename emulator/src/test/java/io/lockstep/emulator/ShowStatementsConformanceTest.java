package io.lockstep.emulator;

import static io.lockstep.emulator.TestSchema.h;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The SHOW, DESC and EXPLAIN statements of the query port with StarRocks' column sets and types: fe-core
 * {@code com/starrocks/qe/ShowResultMetaFactory.java} (SHOW TABLE STATUS, SHOW [FULL] COLUMNS, DESC ALL, SHOW INDEX,
 * SHOW PROCESSLIST, SHOW DATA, SHOW STATUS, SHOW VARIABLES), {@code common/proc/FrontendsProcNode.java},
 * {@code common/proc/BackendsProcDir.java}, {@code common/proc/DbsProcDir.java}, {@code common/proc/ProcService.java},
 * {@code common/proc/PartitionsProcDir.java}, {@code common/proc/LoadProcDir.java},
 * {@code common/proc/TransProcDir.java} and {@code sql/ast/ShowStreamLoadStmt.java}.
 */
class ShowStatementsConformanceTest {
    @RegisterExtension
    static final StarRocksEmulatorExtension SR = new StarRocksEmulatorExtension(StarRocksEmulator.builder()
            .ddl("CREATE DATABASE sd; CREATE TABLE sd.items (id BIGINT NOT NULL, name VARCHAR(20) DEFAULT 'x')"
                    + " PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1;"
                    + " CREATE TABLE sd.logs (ts DATETIME NOT NULL, msg STRING) DUPLICATE KEY (ts)"
                    + " DISTRIBUTED BY HASH(ts) BUCKETS 1"));

    static List<String> labels(ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        List<String> labels = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            labels.add(meta.getColumnLabel(i));
        }
        return labels;
    }

    record Result(List<String> columns, List<List<String>> rows) {
    }

    static Result run(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            List<String> columns = labels(rs);
            List<List<String>> rows = new ArrayList<>();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= columns.size(); i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
            return new Result(columns, rows);
        }
    }

    @Test
    void tableStatementsHaveStarRocksColumns() throws Exception {
        try (Connection c = InformationSchemaConformanceTestSupport.connect(SR, "sd"); Statement s = c.createStatement()) {
            assertThat(run(s, "SHOW TABLES LIKE 'it%'").rows()).containsExactly(List.of("items"));
            assertThat(run(s, "SHOW FULL TABLES WHERE Tables_in_sd = 'logs'").rows())
                    .containsExactly(List.of("logs", "BASE TABLE"));
            Result status = run(s, "SHOW TABLE STATUS LIKE 'items'");
            assertThat(status.columns()).containsExactly("Name", "Engine", "Version", "Row_format", "Rows",
                    "Avg_row_length", "Data_length", "Max_data_length", "Index_length", "Data_free", "Auto_increment",
                    "Create_time", "Update_time", "Check_time", "Collation", "Checksum", "Create_options", "Comment");
            assertThat(status.rows()).hasSize(1);
            assertThat(status.rows().get(0).subList(0, 2)).containsExactly("items", "StarRocks");
            try (ResultSet rs = s.executeQuery("SHOW TABLE STATUS")) {
                assertThat(rs.getMetaData().getColumnType(5)).isEqualTo(Types.BIGINT);
                assertThat(rs.getMetaData().getColumnType(12)).isEqualTo(Types.TIMESTAMP);
            }
            Result full = run(s, "SHOW FULL COLUMNS FROM items");
            assertThat(full.columns()).containsExactly("Field", "Type", "Collation", "Null", "Key", "Default",
                    "Extra", "Privileges", "Comment");
            assertThat(full.rows().get(0).subList(0, 5)).containsExactly("id", "bigint(20)", "", "NO", "YES");
            assertThat(run(s, "SHOW COLUMNS FROM sd.items").rows().get(1))
                    .containsExactly("name", "varchar(20)", "YES", "NO", "x", "");
            Result all = run(s, "DESC items ALL");
            assertThat(all.columns()).containsExactly("IndexName", "IndexKeysType", "Field", "Type", "Null", "Key",
                    "Default", "Extra");
            assertThat(all.rows().get(0).subList(0, 4)).containsExactly("items", "PRIMARY_KEYS", "id", "bigint(20)");
            assertThat(run(s, "SHOW INDEX FROM items").columns()).containsExactly("Table", "Non_unique", "Key_name",
                    "Seq_in_index", "Column_name", "Collation", "Cardinality", "Sub_part", "Packed", "Null",
                    "Index_type", "Comment");
            Result partitions = run(s, "SHOW PARTITIONS FROM items");
            assertThat(partitions.columns()).hasSize(17).startsWith("PartitionId", "PartitionName", "VisibleVersion");
            assertThat(partitions.rows()).hasSize(1);
            assertThat(partitions.rows().get(0).get(1)).isEqualTo("items");
            Result data = run(s, "SHOW DATA");
            assertThat(data.columns()).containsExactly("TableName", "Size", "ReplicaCount");
            assertThat(data.rows()).extracting(r -> r.get(0)).containsExactly("items", "logs", "Total", "Quota",
                    "Left");
            assertThat(run(s, "SHOW DATA FROM sd.items").columns()).containsExactly("TableName", "IndexName", "Size",
                    "ReplicaCount", "RowCount");
            Result explain = run(s, "EXPLAIN SELECT id, name FROM items WHERE id > 1");
            assertThat(explain.columns()).containsExactly("Explain String");
            assertThat(explain.rows().get(0)).containsExactly("PLAN FRAGMENT 0");
            assertThatThrownBy(() -> s.executeQuery("EXPLAIN SELECT nope FROM items"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1064));
            // StarRocks 3.3+ numbers an unknown table 5502 (ErrorCode.ERR_BAD_TABLE_ERROR), as the query port sends it
            assertThatThrownBy(() -> s.executeQuery("SHOW FULL COLUMNS FROM missing"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(5502));
        }
    }

    @Test
    void serverStatementsHaveStarRocksColumns() throws Exception {
        try (Connection c = InformationSchemaConformanceTestSupport.connect(SR, "sd"); Statement s = c.createStatement()) {
            assertThat(run(s, "SHOW VARIABLES WHERE Variable_name = 'version_comment'").rows())
                    .containsExactly(List.of("version_comment", "StarRocks version 4.0.2-lockstep"));
            Result status = run(s, "SHOW GLOBAL STATUS LIKE 'Uptime'");
            assertThat(status.columns()).containsExactly("Variable_name", "Value");
            assertThat(status.rows()).isEmpty();
            Result processes = run(s, "SHOW FULL PROCESSLIST");
            assertThat(processes.columns()).containsExactly("ServerName", "Id", "User", "Host", "Db", "Command",
                    "ConnectionStartTime", "Time", "State", "Info", "IsPending", "Warehouse", "CNGroup", "Catalog",
                    "QueryId");
            assertThat(processes.rows()).hasSize(1);
            assertThat(processes.rows().get(0).get(2)).isEqualTo("root");
            Result frontends = run(s, "SHOW FRONTENDS");
            assertThat(frontends.columns()).containsExactly("Name", "IP", "EditLogPort", "HttpPort", "QueryPort",
                    "RpcPort", "Role", "ClusterId", "Join", "Alive", "ReplayedJournalId", "LastHeartbeat", "IsHelper",
                    "ErrMsg", "StartTime", "Version");
            assertThat(frontends.rows().get(0).get(4)).isEqualTo(String.valueOf(SR.emulator().queryPort()));
            assertThat(frontends.rows().get(0).get(3))
                    .isEqualTo(String.valueOf(java.net.URI.create(SR.emulator().feUrl()).getPort()));
            Result backends = run(s, "SHOW BACKENDS");
            assertThat(backends.columns()).hasSize(30).startsWith("BackendId", "IP", "HeartbeatPort", "BePort",
                    "HttpPort").endsWith("Location", "StatusCode");
            assertThat(run(s, "SHOW PROC '/backends'").columns()).isEqualTo(backends.columns());
            assertThat(run(s, "SHOW PROC '/'").rows()).contains(List.of("dbs"), List.of("transactions"));
            Result dbs = run(s, "SHOW PROC '/dbs'");
            assertThat(dbs.columns()).containsExactly("DbId", "DbName", "TableNum", "Quota",
                    "LastConsistencyCheckTime", "ReplicaQuota");
            assertThat(dbs.rows()).extracting(r -> r.get(1) + ":" + r.get(2)).containsExactly("sd:2");
        }
    }

    @Test
    void createDatabaseAndGrantsHaveStarRocksColumns() throws Exception {
        try (Connection c = InformationSchemaConformanceTestSupport.connect(SR, "sd"); Statement s = c.createStatement()) {
            Result create = run(s, "show create database sd");
            assertThat(create.columns()).containsExactly("Database", "Create Database");
            assertThat(create.rows()).containsExactly(List.of("sd", "CREATE DATABASE `sd`"));
            Result grants = run(s, "show grants");
            assertThat(grants.columns()).containsExactly("UserIdentity", "Catalog", "Grants");
            assertThat(grants.rows()).containsExactly(java.util.Arrays.asList("'root'@'%'", null,
                    "GRANT 'root' TO 'root'@'%'"));
            assertThatThrownBy(() -> s.executeQuery("show create database nodb"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(5501));
            assertThatThrownBy(() -> s.executeQuery("show roles"))
                    .hasMessageContaining("the emulator's query port does not run SHOW ROLES");
        }
    }

    @Test
    void loadStatementsListTheEmulatorsTransactions() throws Exception {
        long txnId;
        try (SrHttp http = new SrHttp(SR.emulator().feUrl()).as("root", "")) {
            var begin = http.txn("begin", h("label", "show-1", "db", "sd", "table", "items"));
            assertThat(begin.srStatus()).isEqualTo("OK");
            txnId = SR.emulator().transaction("sd", "show-1").orElseThrow().txnId();
            try (Connection c = InformationSchemaConformanceTestSupport.connect(SR, "sd");
                 Statement s = c.createStatement()) {
                Result txn = run(s, "SHOW TRANSACTION WHERE id = " + txnId);
                assertThat(txn.columns()).hasSize(14).startsWith("TransactionId", "Label", "Coordinator",
                        "TransactionStatus");
                assertThat(txn.rows()).extracting(r -> r.get(1) + ":" + r.get(3)).containsExactly("show-1:PREPARE");
                Result stream = run(s, "SHOW STREAM LOAD");
                assertThat(stream.columns()).hasSize(25).startsWith("Label", "Id", "LoadId", "TxnId", "DbName",
                        "TableName", "State").endsWith("Type", "TrackingSQL");
                assertThat(stream.rows()).extracting(r -> r.get(0) + ":" + r.get(6)).containsExactly("show-1:LOADING");
                Result load = run(s, "SHOW LOAD FROM sd");
                assertThat(load.columns()).hasSize(21).startsWith("JobId", "Label", "State").endsWith("Warehouse");
                assertThat(load.rows()).isEmpty();
                assertThat(http.txn("rollback", h("label", "show-1", "db", "sd", "table", "items")).srStatus())
                        .isEqualTo("OK");
                assertThat(run(s, "SHOW STREAM LOAD").rows()).isEmpty();
                assertThat(run(s, "SHOW ALL STREAM LOAD").rows()).extracting(r -> r.get(6))
                        .containsExactly("CANCELLED");
            }
        }
    }
}
