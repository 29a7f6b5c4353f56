package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import com.starrocks.data.load.stream.properties.StreamLoadTableProperties;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.engine.LoadEngineConfig;
import io.lockstep.flink.options.InvalidSinkOptionException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The one mapping from sink options to the core's client and engine settings. */
class SinkSettingsTest {

    private static StarRocksSinkOptions.Builder json() {
        return StarRocksSinkOptions.builder()
                .withProperty("load-url", "fe1:8030;https://fe2:8443")
                .withProperty("database-name", "shop")
                .withProperty("table-name", "*")
                .withProperty("username", "loader")
                .withProperty("password", "pw")
                .withProperty("sink.properties.format", "json");
    }

    private static StarRocksSinkOptions.Builder multiTable() {
        return json().withProperty("sink.version", "V2").withProperty("sink.transaction.multi-table.enabled", "true");
    }

    @Test
    void clientSettingsComeFromTheConnectionOptions() {
        TransactionClientConfig client = SinkSettings.from(json()
                .withProperty("sink.connect.timeout-ms", "1500")
                .withProperty("sink.socket.timeout-ms", "7000")
                .withProperty("sink.max-retries", "5")
                .withProperty("sink.retry.interval-ms", "2000").build()).clientConfig();

        assertThat(client.loadUrls().bases()).containsExactly(URI.create("http://fe1:8030"),
                URI.create("https://fe2:8443"));
        assertThat(client.username()).isEqualTo("loader");
        assertThat(client.password()).isEqualTo("pw");
        assertThat(client.connectTimeoutMs()).isEqualTo(1500);
        assertThat(client.socketTimeoutMs()).isEqualTo(7000);
        assertThat(client.maxRetries()).isEqualTo(5);
        assertThat(client.retryBackoffInitialMs()).isEqualTo(500);
        assertThat(client.retryBackoffMaxMs()).isEqualTo(2000);
    }

    @Test
    void beAddressMapReachesTheClientAndABadEntryIsRefusedNamingTheOption() {
        assertThat(SinkSettings.from(json().build()).clientConfig().redirectAddressMap().isEmpty()).isTrue();
        assertThat(SinkSettings.from(json().withProperty("sink.be-address-map", "172.18.0.3:8040=localhost:18040")
                .build()).clientConfig().redirectAddressMap().toString()).isEqualTo("{172.18.0.3:8040=localhost:18040}");
        assertThatThrownBy(() -> json().withProperty("sink.be-address-map",
                        "172.18.0.3:8040").build())
                .hasMessageContaining("sink.be-address-map")
                .hasMessageContaining("172.18.0.3:8040");
    }

    @Test
    void socketTimeoutHasAFiniteDefaultAndZeroMeansNoLimit() {
        assertThat(SinkSettings.from(json().build()).clientConfig().socketTimeoutMs()).isEqualTo(60_000);
        assertThat(SinkSettings.from(json().withProperty("sink.socket.timeout-ms", "-1").build())
                .clientConfig().socketTimeoutMs()).isEqualTo(60_000);
        assertThat(SinkSettings.from(json().build()).clientConfig().waitForContinueTimeoutMs()).isEqualTo(30_000);
        assertThat(SinkSettings.from(json().withProperty("sink.wait-for-continue.timeout-ms", "3000").build())
                .clientConfig().waitForContinueTimeoutMs()).isEqualTo(3_000);
        assertThat(SinkSettings.from(json().withProperty("sink.socket.timeout-ms", "0").build())
                .clientConfig().socketTimeoutMs()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void aRetryIntervalBelowTheFirstBackoffCapsItAndZeroBecomesOneMillisecond() {
        TransactionClientConfig short200 = SinkSettings.from(json().withProperty("sink.retry.interval-ms", "200")
                .build()).clientConfig();
        TransactionClientConfig zero = SinkSettings.from(json().withProperty("sink.retry.interval-ms", "0")
                .build()).clientConfig();

        assertThat(short200.retryBackoffInitialMs()).isEqualTo(200);
        assertThat(short200.retryBackoffMaxMs()).isEqualTo(200);
        assertThat(zero.retryBackoffInitialMs()).isEqualTo(1);
        assertThat(zero.retryBackoffMaxMs()).isEqualTo(1);
    }

    @Test
    void multiTableEngineSettings() {
        LoadEngineConfig engine = SinkSettings.from(multiTable()
                .withProperty("sink.label-prefix", "orders_job")
                .withProperty("sink.buffer-flush.interval-ms", "2000")
                .withProperty("sink.scan-frequency.ms", "20")
                .withProperty("sink.transaction.multi-table.buffer-size", "1048576")
                .withProperty("sink.buffer-flush.max-bytes", "999")
                .withProperty("sink.properties.timeout", "60").build()).engineConfig(3, "run1");

        assertThat(engine.labelPrefix()).isEqualTo("orders_job");
        assertThat(engine.subtaskIndex()).isEqualTo(3);
        assertThat(engine.runId()).isEqualTo("run1");
        assertThat(engine.commitIntervalMs()).isEqualTo(2000);
        assertThat(engine.scanningFrequencyMs()).isEqualTo(20);
        assertThat(engine.bufferSizeBytes()).isEqualTo(1_048_576);
        assertThat(engine.serverTimeoutSeconds()).isEqualTo(60);
        assertThat(engine.database()).as("database-name fixes the multi-table database").isEqualTo("shop");
    }

    @Test
    void singleTableEnginesBufferUpToFlushMaxBytesAndTakeAFreshRunIdAndTheDefaultPrefix() {
        SinkSettings settings = SinkSettings.from(json().withProperty("sink.buffer-flush.max-bytes", "4096").build());
        LoadEngineConfig engine = settings.engineConfig(0, null);

        assertThat(engine.bufferSizeBytes()).isEqualTo(4096);
        assertThat(engine.labelPrefix()).isEqualTo("lockstep");
        assertThat(engine.runId()).isNotBlank().isNotEqualTo(settings.engineConfig(0, null).runId());
        assertThat(engine.database()).as("single-table engines take any database").isNull();
    }

    @Test
    void wildcardDatabaseLeavesTheMultiTableDatabaseToTheFirstRow() {
        assertThat(SinkSettings.from(multiTable().withProperty("database-name", "*").build())
                .engineConfig(0, null).database()).isNull();
    }

    @Test
    void loadHeadersAreTheSinkPropertiesOverlaidByTheTablesOwnWithoutTheBeginTimeout() {
        StarRocksSinkOptions options = json().withProperty("sink.properties.max_filter_ratio", "0.1")
                .withProperty("sink.properties.timeout", "100")
                .withProperty("sink.buffer-flush.interval-ms", "1000").build();
        options.addTableProperties(StreamLoadTableProperties.builder().database("shop").table("orders")
                .addProperty("max_filter_ratio", "0.5").addProperty("columns", "a,b").build());
        SinkSettings settings = SinkSettings.from(options);
        LoadEngineConfig engine = settings.engineConfig(0, null);

        assertThat(engine.loadPropertiesFor("shop", "order_items")).containsEntry("format", "json")
                .containsEntry("strip_outer_array", "true").containsEntry("ignore_json_size", "true")
                .containsEntry("max_filter_ratio", "0.1").doesNotContainKey("timeout");
        assertThat(engine.loadPropertiesFor("shop", "orders")).containsEntry("max_filter_ratio", "0.5")
                .containsEntry("columns", "a,b").containsEntry("format", "json").doesNotContainKey("timeout");
        assertThat(settings.loadHeadersFor("shop", "orders")).isEqualTo(engine.loadPropertiesFor("shop", "orders"));
        assertThat(engine.serverTimeoutSeconds()).isEqualTo(100);
    }

    @Test
    void theEngineFramesBodiesInTheFormatTheOptionsChose() {
        assertThat(SinkSettings.from(json().build()).engineConfig(0, null).loadFormat())
                .isSameAs(io.lockstep.core.format.JsonLoadFormat.INSTANCE);
    }

    @Test
    void csvLoadsWithTheConnectorsSeparatorOptionsUnderEachTargetsNames() {
        LoadEngineConfig starRocks = SinkSettings.from(json().withProperty("sink.properties.format", "csv")
                .withProperty("sink.properties.column_separator", "\\x01")
                .withProperty("sink.properties.row_delimiter", "\\x02").build()).engineConfig(0, null);
        assertThat(starRocks.loadFormat()).isInstanceOf(io.lockstep.core.format.CsvLoadFormat.class);
        assertThat(starRocks.loadPropertiesFor("shop", "orders")).containsEntry("format", "csv")
                .containsEntry("column_separator", "\\x01").containsEntry("row_delimiter", "\\x02")
                .doesNotContainKey("strip_outer_array");
        starRocks.encodeRow("shop", "orders", "{\"id\":1,\"name\":\"a\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(starRocks.loadPropertiesFor("shop", "orders")).containsEntry("columns", "`id`,`name`");

        assertThatThrownBy(() -> SinkSettings.from(json().withProperty("sink.properties.format", "csv")
                .withProperty("sink.properties.column_separator", "\\t").build()))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageStartingWith("Invalid sink option 'sink.properties.column_separator' = '\\t': a backslash")
                .extracting(e -> ((InvalidSinkOptionException) e).getOptionKey())
                .isEqualTo("sink.properties.column_separator");
    }

    @Test
    void aTableWithCsvOrWithoutStripOuterArrayIsRefusedNamingTheTable() {
        StarRocksSinkOptions csvTable = json().build();
        csvTable.addTableProperties(StreamLoadTableProperties.builder().database("shop").table("orders")
                .addProperty("format", "csv").build());
        StarRocksSinkOptions noStrip = json().build();
        noStrip.addTableProperties(StreamLoadTableProperties.builder().database("shop").table("orders")
                .addProperty("strip_outer_array", "false").build());

        assertThatThrownBy(() -> SinkSettings.from(csvTable)).isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageContaining("'format' = 'csv' for table 'shop.orders'")
                .hasMessageContaining("the sink loads every table as 'json'");
        assertThatThrownBy(() -> SinkSettings.from(noStrip)).isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageStartingWith("Invalid strip_outer_array of table 'shop.orders' = 'false'");
        assertThatThrownBy(() -> SinkSettings.from(json().withProperty("sink.properties.strip_outer_array", "false")
                .build())).hasMessageContaining("sink.properties.strip_outer_array = 'false'");
    }

    @Test
    void anAtLeastOnceCommitIntervalMustStayBelowEightyPercentOfTheTransactionTimeout() {
        assertThatThrownBy(() -> SinkSettings.from(json().withProperty("sink.buffer-flush.interval-ms", "9000")
                .withProperty("sink.properties.timeout", "10").build()))
                .isInstanceOf(InvalidSinkOptionException.class)
                .satisfies(e -> assertThat(((InvalidSinkOptionException) e).getOptionKey())
                        .isEqualTo("sink.properties.timeout"))
                .hasMessageContaining("'sink.buffer-flush.interval-ms' = '9000' ms; expected at least 12 seconds");
        assertThat(SinkSettings.from(json().withProperty("sink.buffer-flush.interval-ms", "7999")
                .withProperty("sink.properties.timeout", "10").build())).isNotNull();
    }

    @Test
    void dorisExactlyOnceLoadsByTwoPhaseStreamLoadWithPerFlushLabelsAndTheDorisClient() {
        SinkSettings settings = SinkSettings.from(json().withProperty("sink.target", "doris")
                .withProperty("sink.semantic", "exactly-once").withProperty("sink.properties.timeout", "120").build());

        assertThat(settings.loadMethod()).isEqualTo(io.lockstep.core.engine.LoadMethod.TWO_PHASE_STREAM_LOAD);
        assertThat(settings.labelScheme()).isEqualTo(io.lockstep.core.label.ExactlyOnceLabelScheme.ONE_PER_FLUSH);
        assertThat(settings.engineConfig(0, null).loadMethod())
                .isEqualTo(io.lockstep.core.engine.LoadMethod.TWO_PHASE_STREAM_LOAD);
        assertThat(settings.loadHeadersFor("shop", "orders")).as("Doris has no begin: loads carry the timeout")
                .containsEntry("timeout", "120");
        try (io.lockstep.core.client.TransactionClient client =
                     settings.newTransactionClient(io.lockstep.core.metrics.LoadMetrics.noop())) {
            assertThat(client).isInstanceOf(io.lockstep.core.client.DorisTransactionClient.class);
        }
    }

    @Test
    void dorisAtLeastOnceLoadsByPlainStreamLoadAndStarRocksIsUnchanged() {
        SinkSettings doris = SinkSettings.from(json().withProperty("sink.target", "doris").build());
        assertThat(doris.loadMethod()).isEqualTo(io.lockstep.core.engine.LoadMethod.CLASSIC);
        try (io.lockstep.core.client.StreamLoader loader =
                     doris.newStreamLoader(io.lockstep.core.metrics.LoadMetrics.noop())) {
            assertThat(loader).isInstanceOf(io.lockstep.core.client.DorisStreamLoader.class);
        }

        SinkSettings starRocks = SinkSettings.from(json().withProperty("sink.semantic", "exactly-once").build());
        assertThat(starRocks.loadMethod()).isEqualTo(io.lockstep.core.engine.LoadMethod.TRANSACTION);
        assertThat(starRocks.labelScheme())
                .isEqualTo(io.lockstep.core.label.ExactlyOnceLabelScheme.ONE_PER_CHECKPOINT);
        assertThat(starRocks.loadHeadersFor("shop", "orders")).doesNotContainKey("timeout");
    }
}
