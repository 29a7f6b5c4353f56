package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.metrics.InMemoryLoadMetrics;
import io.lockstep.emulator.StarRocksEmulator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Partial updates ({@code partial_update: true}, row mode) end to end: the emulator keeps the columns a load does not
 * write, and the engine never puts a row with another column set into the transaction (StarRocks connector #424).
 */
@Timeout(60)
class PartialUpdateEmulatorTest {
    private static final String DDL = """
            CREATE DATABASE shop;
            CREATE TABLE shop.customers (
              id BIGINT NOT NULL,
              name VARCHAR(32),
              age INT
            ) PRIMARY KEY (id)
            DISTRIBUTED BY HASH(id) BUCKETS 1;
            """;

    private StarRocksEmulator sr;
    private StarRocksTransactionClient client;
    private final List<AutoCloseable> engines = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        sr = StarRocksEmulator.builder().ddl(DDL).build().start();
        client = new StarRocksTransactionClient(TransactionClientConfig.builder().loadUrls(sr.feUrl())
                .username("root").password("").retryBackoff(1, 5).build(), new InMemoryLoadMetrics());
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable engine : engines) {
            engine.close();
        }
        client.close();
        sr.close();
    }

    private MultiTableLoadEngine engine(String prefix, Map<String, String> customersProperties) {
        MultiTableLoadEngine engine = MultiTableLoadEngine.start(LoadEngineConfig.builder().labelPrefix(prefix)
                .database("shop").commitIntervalMs(60_000).scanningFrequencyMs(5)
                .tableLoadProperties("shop", "customers", customersProperties).build(), client,
                new InMemoryLoadMetrics());
        engines.add(engine);
        return engine;
    }

    private static void write(MultiTableLoadEngine engine, String row) throws InterruptedException {
        engine.write(0, "shop", "customers", row.getBytes(StandardCharsets.UTF_8));
        engine.txnEnd(0);
    }

    private List<String> customers() {
        List<String> rows = new ArrayList<>();
        for (List<Object> row : sr.query("SELECT id, name, age FROM shop.customers ORDER BY id").rows()) {
            rows.add(row.get(0) + "," + row.get(1) + "," + row.get(2));
        }
        return rows;
    }

    @Test
    void aPartialUpdateKeepsTheColumnsItDoesNotWriteAndANewKeyTakesDefaults() throws Exception {
        MultiTableLoadEngine full = engine("full", Map.of());
        write(full, "{\"id\":1,\"name\":\"a\",\"age\":30}");
        write(full, "{\"id\":2,\"name\":\"b\",\"age\":40}");
        full.flush();

        MultiTableLoadEngine partial = engine("part", Map.of("partial_update", "true", "columns", "id,name"));
        write(partial, "{\"id\":1,\"name\":\"a2\"}");
        write(partial, "{\"id\":3,\"name\":\"c\"}");
        partial.flush();

        assertThat(customers()).containsExactly("1,a2,30", "2,b,40", "3,c,null");
    }

    @Test
    void aRowWithAnotherColumnSetIsRefusedNamingBothAndNothingAcceptedIsLost() throws Exception {
        MultiTableLoadEngine partial = engine("part", Map.of("partial_update", "true", "columns", "id,name"));
        write(partial, "{\"id\":1,\"name\":\"a\"}");

        assertThatThrownBy(() -> partial.write(0, "shop", "customers",
                "{\"id\":1,\"age\":3}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shop.customers (partition 0)")
                .hasMessageContaining("keys [age, id]")
                .hasMessageContaining("declares columns [id, name]");

        partial.flush();
        assertThat(customers()).containsExactly("1,a,null");
    }
}
