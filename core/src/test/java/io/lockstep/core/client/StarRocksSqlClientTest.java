package io.lockstep.core.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.metrics.InMemoryLoadMetrics;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Parsing of the HTTP SQL API reply (StarRocks docs {@code docs/en/sql-reference/http_sql_api.md}). */
class StarRocksSqlClientTest {
    private final StarRocksSqlClient client = new StarRocksSqlClient(TransactionClientConfig.builder()
            .loadUrls("127.0.0.1:1").username("root").password("").build(), new InMemoryLoadMetrics());

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theDocumentedExampleParsesToColumnsAndTypedRows() throws Exception {
        SqlResult r = client.parse(bytes("{\"connectionId\":49}\n"
                + "{\"meta\":[{\"name\":\"no\",\"type\":\"int(11)\"},{\"name\":\"k\",\"type\":\"decimal64(10, 2)\"},"
                + "{\"name\":\"v\",\"type\":\"decimal64(10, 2)\"}]}\n"
                + "{\"data\":[1,\"10.00\",null]}\n{\"data\":[2,20.5,\"11.00\"]}\n"
                + "{\"statistics\":{\"scanRows\":0,\"scanBytes\":0,\"returnRows\":2}}\n"));
        assertThat(r.columns()).containsExactly(new SqlColumn("no", "int(11)"), new SqlColumn("k", "decimal64(10, 2)"),
                new SqlColumn("v", "decimal64(10, 2)"));
        assertThat(r.rows()).containsExactly(Arrays.asList(1L, "10.00", null),
                Arrays.asList(2L, new BigDecimal("20.5"), "11.00"));
    }

    @Test
    void aReplyCutOffBeforeItsStatisticsIsBrokenNotShort() {
        assertThatThrownBy(() -> client.parse(bytes("{\"connectionId\":1}\n{\"meta\":[{\"name\":\"a\",\"type\":"
                + "\"int(11)\"}]}\n{\"data\":[1]}\n"))).isInstanceOf(StarRocksSqlClient.BrokenReply.class)
                .hasMessageContaining("ended before its statistics line (1 data lines read)");
    }

    @Test
    void onlySelectIsSent() {
        assertThatThrownBy(() -> client.select("shop", "DELETE FROM t")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only SELECT statements");
    }
}
