package io.lockstep.flink.docexample;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The guide's complete example (see {@link DocExampleTest}) with the one change its {@code TxnEvent} needs to be a
 * Flink POJO (public class, fields and no-arg constructor; see
 * {@link DocExampleTest#docTxnEventIsNotAFlinkPojoSoTheUnchangedExampleFailsWhenRun}):
 * {@code io.lockstep.flink.docexample.publicevent.WriteMultipleTablesWithTransaction}. Its {@code main()} runs on a
 * MiniCluster against the emulator and loads every source transaction of {@code MockTxnEventSource} (4 partitions × 10
 * transactions of 1 order + 3 items) through the multi-table sink; the bounded job's data is all visible when it ends.
 */
class DocExamplePublicTxnEventIT {
    private static final Path VARIANT = Path.of(
            "src/test/java/io/lockstep/flink/docexample/publicevent/WriteMultipleTablesWithTransaction.java");

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2)
            .setConfiguration(new Configuration().set(RestartStrategyOptions.RESTART_STRATEGY, "none"))
            .build());

    @RegisterExtension
    static final StarRocksEmulatorExtension SR = new StarRocksEmulatorExtension(StarRocksEmulator.builder().ddl(
            "CREATE DATABASE test;"
                    + "CREATE TABLE test.orders (order_id BIGINT NOT NULL, customer_id BIGINT, total_amount "
                    + "DECIMAL(12, 2), order_status VARCHAR(32)) DUPLICATE KEY (order_id) "
                    + "DISTRIBUTED BY HASH(order_id);"
                    + "CREATE TABLE test.order_items (item_id BIGINT NOT NULL, order_id BIGINT, product_name "
                    + "VARCHAR(64), quantity INT, price DECIMAL(12, 2)) DUPLICATE KEY (item_id) "
                    + "DISTRIBUTED BY HASH(item_id);"));

    @Test
    void theVariantIsTheDocTextWithOnlyTxnEventMadePublic() throws IOException {
        String docText;
        String resource = "/doc-example/WriteMultipleTablesWithTransaction.java.txt";
        try (InputStream in = getClass().getResourceAsStream(resource)) {
            docText = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String expected = "package io.lockstep.flink.docexample.publicevent;\n\n" + docText
                .replace(DocExampleTest.DOC_PLACEHOLDER, DocExampleTest.FILLED_PLACEHOLDER)
                .replace("    static class TxnEvent implements", "    public static class TxnEvent implements")
                .replace("        int partition;\n        String txnId;\n        EventType type;\n"
                                + "        String database;\n        String table;\n        String json;\n",
                        "        public int partition;\n        public String txnId;\n        public EventType type;\n"
                                + "        public String database;\n        public String table;\n"
                                + "        public String json;\n")
                .replace("        TxnEvent() {}", "        public TxnEvent() {}");

        assertThat(Files.readString(VARIANT, StandardCharsets.UTF_8)).isEqualTo(expected);
    }

    @Test
    void itsMainLoadsEveryTransactionIntoBothTables() throws Exception {
        io.lockstep.flink.docexample.publicevent.WriteMultipleTablesWithTransaction.main(
                new String[] {"--loadUrl", SR.emulator().feUrl()});

        assertThat(SR.emulator().rowCount("test", "orders")).isEqualTo(40);
        assertThat(SR.emulator().rowCount("test", "order_items")).isEqualTo(120);
        assertThat(SR.emulator().query("SELECT COUNT(*) FROM test.orders o WHERE (SELECT COUNT(*) FROM "
                + "test.order_items i WHERE i.order_id = o.order_id) <> 3").rows().get(0).get(0))
                .asString().isEqualTo("0");
    }
}
