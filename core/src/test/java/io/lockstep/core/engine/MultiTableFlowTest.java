package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A steady source on a manual clock: three partitions end a two-table source transaction every 10 ms. Pins the
 * invariants of docs/architecture.md#the-multi-table-commit-cycle over many cycles: every source transaction is
 * committed whole in exactly one shared transaction, visibility latency stays within commitInterval + miniInterval, and
 * loads are batched N:1.
 */
class MultiTableFlowTest {
    private static final Pattern TXN = Pattern.compile("\"txn\":\"([^\"]+)\"");
    private static final long STEP_MS = 10;

    private final EngineFixture f = new EngineFixture();
    private final Map<String, Long> writtenAtMs = new HashMap<>();
    private final Map<String, Integer> rowsPerTxn = new HashMap<>();

    @AfterEach
    void close() {
        f.close();
    }

    private void sourceTransaction(int partition, int n) throws InterruptedException {
        String txn = "p" + partition + "-t" + n;
        int rows = 1 + n % 3;
        for (int r = 0; r < rows; r++) {
            String table = r % 2 == 0 ? "orders" : "items";
            String row = "{\"id\":\"" + txn + "-r" + r + "\",\"txn\":\"" + txn + "\"}";
            f.engine.write(partition, "db", table, row.getBytes(StandardCharsets.UTF_8));
        }
        f.engine.txnEnd(partition);
        writtenAtMs.put(txn, f.clock.nowMs());
        rowsPerTxn.put(txn, rows);
    }

    @Test
    void steadySourceCommitsWholeTransactionsWithBoundedLatencyAndBatchedLoads() throws Exception {
        Map<String, Long> visibleAtMs = new HashMap<>();
        Map<String, Set<String>> labelsPerTxn = new HashMap<>();
        Map<String, Integer> committedRowsPerTxn = new HashMap<>();
        int seen = 0;
        int transactions = 0;
        for (int tick = 0; tick < 1000; tick++) { // 10 s
            for (int partition = 0; partition < 3; partition++) {
                sourceTransaction(partition, tick);
                transactions++;
            }
            f.advanceAndDrive(STEP_MS);
            var committed = f.client.committedLoads();
            for (; seen < committed.size(); seen++) {
                String[] load = committed.get(seen);
                for (String row : FakeTransactionClient.splitRows(load[1])) {
                    Matcher m = TXN.matcher(row);
                    assertThat(m.find()).isTrue();
                    String txn = m.group(1);
                    visibleAtMs.putIfAbsent(txn, f.clock.nowMs());
                    labelsPerTxn.computeIfAbsent(txn, k -> new HashSet<>()).add(load[2]);
                    committedRowsPerTxn.merge(txn, 1, Integer::sum);
                }
            }
        }
        long commitIntervalMs = f.engine.config().commitIntervalMs();
        long miniIntervalMs = f.engine.config().miniIntervalMs();
        for (var e : visibleAtMs.entrySet()) {
            String txn = e.getKey();
            assertThat(labelsPerTxn.get(txn)).as(() -> "source transaction " + txn + " in one shared transaction; "
                    + "calls " + f.client.calls().stream()
                    .filter(c -> c.body() == null || c.body().contains("\"" + txn + "\""))
                    .map(c -> c.toString() + (c.body() == null ? "" : " " + c.body())).toList()).hasSize(1);
            assertThat(committedRowsPerTxn.get(txn)).as("all rows of %s", txn).isEqualTo(rowsPerTxn.get(txn));
            assertThat(e.getValue() - writtenAtMs.get(txn)).as("visibility latency of %s", txn)
                    .isLessThanOrEqualTo(commitIntervalMs + miniIntervalMs + STEP_MS);
        }
        assertThat(visibleAtMs.size()).as("transactions visible by the end").isGreaterThan(transactions * 8 / 10);
        long commits = f.client.calls("commit").size();
        long loads = f.client.calls("load").size();
        assertThat(commits).isBetween(8L, 11L);
        // ~10 switches per second per table (mini interval 100 ms) instead of one load per source transaction
        assertThat(loads).isLessThanOrEqualTo(2 * 10 * 11).isLessThan(transactions / 10);
    }
}
