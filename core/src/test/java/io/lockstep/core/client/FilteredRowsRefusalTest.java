package io.lockstep.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.emulator.DorisEmulator;
import io.lockstep.emulator.StarRocksEmulator;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A load the server refuses for filtered rows ({@code strict_mode: true}, {@code max_filter_ratio} 0) is a data
 * error wherever the refusal comes: at the commit of a multi-table transaction, at the prepare of a single-table one
 * (StarRocks), or at the two-phase load (Doris). The failure keeps {@link FailureClass#DATA_ERROR} (a restart cannot
 * heal it) and its message is one line quoting at most {@value ErrorLogExcerpt#MAX_LINES} lines of the error log, each
 * cut at {@value ErrorLogExcerpt#MAX_LINE_CHARS} characters.
 */
class FilteredRowsRefusalTest {
    private static final String DDL = "CREATE DATABASE shop; "
            + "CREATE TABLE shop.orders (id BIGINT NOT NULL, qty INT, note VARCHAR(400)) DUPLICATE KEY(id) "
            + "DISTRIBUTED BY HASH(id) BUCKETS 1; "
            + "CREATE TABLE shop.items (id BIGINT NOT NULL, qty INT, note VARCHAR(400)) DUPLICATE KEY(id) "
            + "DISTRIBUTED BY HASH(id) BUCKETS 1";
    private static final Map<String, String> STRICT = Map.of("format", "json", "strip_outer_array", "true",
            "strict_mode", "true");
    /** Long enough that an error-log line quoting the row passes the line limit. */
    private static final String LONG_NOTE = "x".repeat(300);

    private static StarRocksEmulator sr;
    private static DorisEmulator doris;

    @BeforeAll
    static void start() throws Exception {
        sr = StarRocksEmulator.builder().ddl(DDL).build().start();
        doris = DorisEmulator.builder().ddl(DDL).build().start();
    }

    @AfterAll
    static void stop() {
        sr.close();
        doris.close();
    }

    private static TransactionClientConfig config(String loadUrl) {
        return TransactionClientConfig.builder().loadUrls(loadUrl).username("root").maxRetries(1)
                .retryBackoff(1, 2).labelStateTimeoutMs(2_000).build();
    }

    /** One good row, then five whose {@code qty} is not a number: strict mode filters them. */
    private static byte[] rowsWithFiveBad(int firstId) {
        StringBuilder sb = new StringBuilder("[{\"id\":" + firstId + ",\"qty\":1,\"note\":\"ok\"}");
        for (int i = 1; i <= 5; i++) {
            sb.append(",{\"id\":").append(firstId + i).append(",\"qty\":\"many\",\"note\":\"").append(LONG_NOTE)
                    .append("\"}");
        }
        return sb.append(']').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void assertOneLineDataError(Throwable thrown) {
        assertThat(thrown).isInstanceOf(TransactionException.class);
        TransactionException e = (TransactionException) thrown;
        String message = e.getMessage();
        assertThat(e.failureClass()).as("class of: %s", message).isEqualTo(FailureClass.DATA_ERROR);
        assertThat(message).contains("too many filtered rows").contains("error log http")
                .doesNotContain("\n").doesNotContain("\r");
        String excerpt = message.substring(message.indexOf("error log http"));
        excerpt = excerpt.substring(excerpt.indexOf(": ") + 2);
        String[] lines = excerpt.split(" \\| ");
        assertThat(lines).as("quoted error-log lines in: %s", excerpt).hasSizeBetween(1, ErrorLogExcerpt.MAX_LINES + 1);
        for (int i = 0; i < Math.min(lines.length, ErrorLogExcerpt.MAX_LINES); i++) {
            assertThat(lines[i].length()).as("line %s: %s", i, lines[i])
                    .isLessThanOrEqualTo(ErrorLogExcerpt.MAX_LINE_CHARS + 3);
        }
        assertThat(message).as("no whole row: the 300-character note is cut").doesNotContain(LONG_NOTE);
    }

    @Test
    void aMultiTableCommitRefusedForFilteredRowsIsADataErrorInOneLine() throws Exception {
        try (StarRocksTransactionClient client = new StarRocksTransactionClient(config(sr.feUrl()),
                LoadMetrics.noop())) {
            TransactionRef txn = TransactionRef.multiTable("shop", "filtered-multi");
            client.begin(txn, 60);
            client.load(txn, "orders", "[{\"id\":1,\"qty\":1,\"note\":\"ok\"}]".getBytes(StandardCharsets.UTF_8),
                    STRICT);
            client.load(txn, "items", rowsWithFiveBad(10), STRICT);

            assertThatThrownBy(() -> client.commit(txn)).satisfies(FilteredRowsRefusalTest::assertOneLineDataError);
            assertThat(client.labelState("shop", txn.label())).isEqualTo(LabelState.ABORTED);
        }
    }

    @Test
    void aSingleTablePrepareRefusedForFilteredRowsIsADataErrorInOneLine() throws Exception {
        try (StarRocksTransactionClient client = new StarRocksTransactionClient(config(sr.feUrl()),
                LoadMetrics.noop())) {
            TransactionRef txn = TransactionRef.singleTable("shop", "orders", "filtered-single");
            client.begin(txn, 60);
            client.load(txn, "orders", rowsWithFiveBad(20), STRICT);

            assertThatThrownBy(() -> client.prepare(txn)).satisfies(FilteredRowsRefusalTest::assertOneLineDataError);
            assertThat(client.labelState("shop", txn.label())).isEqualTo(LabelState.ABORTED);
        }
    }

    @Test
    void aDorisTwoPhaseLoadRefusedForFilteredRowsIsADataErrorInOneLine() throws Exception {
        try (DorisTransactionClient client = new DorisTransactionClient(config(doris.feHostPort()),
                LoadMetrics.noop())) {
            TransactionRef txn = TransactionRef.singleTable("shop", "orders", "filtered-doris");
            client.begin(txn, 60);

            assertThatThrownBy(() -> client.load(txn, "orders", rowsWithFiveBad(30), STRICT))
                    .satisfies(FilteredRowsRefusalTest::assertOneLineDataError);
        }
    }
}
