package io.lockstep.emulator;

import static io.lockstep.emulator.DorisSchema.csv;
import static io.lockstep.emulator.DorisSchema.eventRows;
import static io.lockstep.emulator.DorisSchema.twoPc;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code SHOW PROC '/transactions/<dbId>/running|finished'} on the query port in Doris mode: Doris' 15 columns, with
 * {@code PreCommitTime} after {@code PrepareTime} (Doris FE
 * {@code fe/fe-core/src/main/java/org/apache/doris/common/proc/TransProcDir.java}), Doris' status names (FE
 * {@code transaction/TransactionStatus.java}: PRECOMMITTED for a 2PC load awaiting commit) and a stream load's
 * coordinator as {@code BE: <ip>} ({@code transaction/TransactionState.TxnCoordinator.toString}: source type, colon,
 * ip; a stream load's transaction is begun by the BE).
 */
class DorisTransactionProcTest {
    @RegisterExtension
    final DorisEmulatorExtension extension = new DorisEmulatorExtension(DorisEmulator.builder().ddl(DorisSchema.DDL));

    @Test
    void transactionListsHaveDorisFifteenColumnsAndTheBeAsCoordinator() throws Exception {
        DorisEmulator doris = extension.emulator();
        try (DorisHttp http = new DorisHttp(doris.feUrl())) {
            assertThat(http.load("shop", "events", twoPc("proc-pre"), eventRows(1, 2)).loadStatus())
                    .isEqualTo("Success");
            assertThat(http.load("shop", "events", csv("proc-done"), eventRows(3, 3)).loadStatus())
                    .isEqualTo("Success");
        }
        long dbId = doris.catalog().database("shop").orElseThrow().id();
        try (Connection c = DriverManager.getConnection(doris.jdbcUrl(), "root", "");
             Statement s = c.createStatement()) {
            List<String> columns = new ArrayList<>();
            List<List<String>> running = rows(s, "SHOW PROC '/transactions/" + dbId + "/running'", columns);
            assertThat(columns).containsExactly("TransactionId", "Label", "Coordinator", "TransactionStatus",
                    "LoadJobSourceType", "PrepareTime", "PreCommitTime", "CommitTime", "PublishTime", "FinishTime",
                    "Reason", "ErrorReplicasCount", "ListenerId", "TimeoutMs", "ErrMsg");
            assertThat(running).hasSize(1);
            assertThat(running.get(0).subList(1, 5))
                    .containsExactly("proc-pre", "BE: 127.0.0.1", "PRECOMMITTED", "BACKEND_STREAMING");
            assertThat(running.get(0).get(5)).isNotNull();
            assertThat(running.get(0).get(6)).isNull();

            List<List<String>> finished = rows(s, "SHOW PROC '/transactions/" + dbId + "/finished'", new ArrayList<>());
            assertThat(finished).hasSize(1);
            assertThat(finished.get(0)).hasSize(15);
            assertThat(finished.get(0).subList(1, 5))
                    .containsExactly("proc-done", "BE: 127.0.0.1", "VISIBLE", "BACKEND_STREAMING");
        }
    }

    private static List<List<String>> rows(Statement s, String sql, List<String> columns) throws Exception {
        List<List<String>> rows = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData meta = rs.getMetaData();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                columns.add(meta.getColumnLabel(i));
            }
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
