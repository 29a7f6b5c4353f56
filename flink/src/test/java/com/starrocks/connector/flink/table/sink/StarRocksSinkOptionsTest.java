package com.starrocks.connector.flink.table.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import com.starrocks.data.load.stream.properties.StreamLoadTableProperties;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkOptionDefinitions;
import io.lockstep.flink.options.SinkSemantic;
import io.lockstep.flink.options.SinkVersion;
import io.lockstep.flink.options.StreamLoadFormat;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class StarRocksSinkOptionsTest {

    static StarRocksSinkOptions.Builder required() {
        return StarRocksSinkOptions.builder()
                .withProperty("load-url", "127.0.0.1:8030")
                .withProperty("database-name", "test")
                .withProperty("table-name", "orders")
                .withProperty("username", "root");
    }

    @Test
    void absentOptionsTakeTheirDocumentedDefaults() {
        StarRocksSinkOptions options = required().build();

        assertThat(options.getJdbcUrl()).isNull();
        assertThat(options.getPassword()).isEmpty();
        assertThat(options.getSinkVersion()).isEqualTo(SinkVersion.AUTO);
        assertThat(options.getSemantic()).isEqualTo(SinkSemantic.AT_LEAST_ONCE);
        assertThat(options.getLabelPrefix()).isNull();
        assertThat(options.isMultiTableTransactionEnabled()).isFalse();
        assertThat(options.getMultiTableBufferSizeBytes()).isEqualTo(134_217_728L);
        assertThat(options.getBufferFlushIntervalMs()).isEqualTo(300_000L);
        assertThat(options.getBufferFlushMaxBytes()).isEqualTo(90L * 1024 * 1024);
        assertThat(options.getMaxRetries()).isEqualTo(3);
        assertThat(options.getRetryIntervalMs()).isEqualTo(10_000L);
        assertThat(options.getConnectTimeoutMs()).isEqualTo(30_000L);
        assertThat(options.getSocketTimeoutMs()).isEqualTo(60_000L);
        assertThat(options.getScanFrequencyMs()).isEqualTo(50L);
        assertThat(options.getStreamLoadTimeoutSeconds()).isEqualTo(600);
        assertThat(options.getStreamLoadFormat()).isEqualTo(StreamLoadFormat.CSV);
        assertThat(options.isAbortLingeringTransactions()).isTrue();
        assertThat(options.getCheckNumLingeringTransactions()).isEqualTo(-1);
        assertThat(options.getStreamLoadProperties()).isEmpty();
        assertThat(options.getTableProperties()).isEmpty();
    }

    @Test
    void everyOptionRoundTripsThroughTheBuilder() {
        StarRocksSinkOptions options = StarRocksSinkOptions.builder()
                .withProperty("jdbc-url", "jdbc:mysql://fe1:9030,fe2:9030")
                .withProperty("load-url", "fe1:8030; https://fe2:8443")
                .withProperty("database-name", "*")
                .withProperty("table-name", "*")
                .withProperty("username", "loader")
                .withProperty("password", "s3cret")
                .withProperty("sink.version", "v2")
                .withProperty("sink.semantic", "EXACTLY-ONCE")
                .withProperty("sink.label-prefix", "job_7-a")
                .withProperty("sink.transaction.multi-table.buffer-size", "1048576")
                .withProperty("sink.buffer-flush.interval-ms", "2000")
                .withProperty("sink.buffer-flush.max-bytes", "4096")
                .withProperty("sink.max-retries", "0")
                .withProperty("sink.retry.interval-ms", "250")
                .withProperty("sink.connect.timeout-ms", "1500")
                .withProperty("sink.socket.timeout-ms", "0")
                .withProperty("sink.scan-frequency.ms", "20")
                .withProperty("sink.properties.timeout", "90")
                .withProperty("sink.properties.format", "JSON")
                .withProperty("sink.properties.enable_merge_commit", "false")
                .withProperty("sink.exactly-once.enable-abort-lingering-txn", "FALSE")
                .withProperty("sink.exactly-once.check-num-lingering-txn", "12")
                .build();

        assertThat(options.getJdbcUrl()).isEqualTo("jdbc:mysql://fe1:9030,fe2:9030");
        assertThat(options.getLoadUrls()).containsExactly("http://fe1:8030", "https://fe2:8443");
        assertThat(options.getDatabaseName()).isEqualTo("*");
        assertThat(options.getTableName()).isEqualTo("*");
        assertThat(options.getUsername()).isEqualTo("loader");
        assertThat(options.getPassword()).isEqualTo("s3cret");
        assertThat(options.getSinkVersion()).isEqualTo(SinkVersion.V2);
        assertThat(options.getSemantic()).isEqualTo(SinkSemantic.EXACTLY_ONCE);
        assertThat(options.getLabelPrefix()).isEqualTo("job_7-a");
        assertThat(options.getMultiTableBufferSizeBytes()).isEqualTo(1_048_576L);
        assertThat(options.getBufferFlushIntervalMs()).isEqualTo(2000L);
        assertThat(options.getBufferFlushMaxBytes()).isEqualTo(4096L);
        assertThat(options.getMaxRetries()).isZero();
        assertThat(options.getRetryIntervalMs()).isEqualTo(250L);
        assertThat(options.getConnectTimeoutMs()).isEqualTo(1500L);
        assertThat(options.getSocketTimeoutMs()).isZero();
        assertThat(options.getScanFrequencyMs()).isEqualTo(20L);
        assertThat(options.getStreamLoadTimeoutSeconds()).isEqualTo(90);
        assertThat(options.getStreamLoadFormat()).isEqualTo(StreamLoadFormat.JSON);
        assertThat(options.isAbortLingeringTransactions()).isFalse();
        assertThat(options.getCheckNumLingeringTransactions()).isEqualTo(12);
        assertThat(options.get(SinkOptionDefinitions.MERGE_COMMIT_ENABLED)).isFalse();
        assertThat(options.get(SinkOptionDefinitions.SINK_SEMANTIC)).isEqualTo(SinkSemantic.EXACTLY_ONCE);
    }

    @Test
    void multiTableOptionRoundTrips() {
        StarRocksSinkOptions options = required()
                .withProperty("sink.version", "V2")
                .withProperty("sink.transaction.multi-table.enabled", "true")
                .build();

        assertThat(options.isMultiTableTransactionEnabled()).isTrue();
    }

    @Test
    void laterWithPropertyReplacesEarlierValue() {
        StarRocksSinkOptions options = required()
                .withProperty("sink.max-retries", "abc")
                .withProperty("sink.max-retries", "5")
                .build();

        assertThat(options.getMaxRetries()).isEqualTo(5);
    }

    @Test
    void sinkPropertiesArePassedThroughWithLowerCaseNames() {
        StarRocksSinkOptions options = required()
                .withProperty("sink.properties.format", "json")
                .withProperty("sink.properties.Strip_Outer_Array", "true")
                .withProperty("sink.properties.columns", "a,b,__op")
                .build();

        assertThat(options.getStreamLoadProperties()).containsExactly(
                entry("columns", "a,b,__op"), entry("format", "json"), entry("strip_outer_array", "true"));
        assertThat(options.toMap()).containsEntry("sink.properties.strip_outer_array", "true");
    }

    @Test
    void effectiveHeadersLayerDefaultsSinkPropertiesAndTableProperties() {
        StarRocksSinkOptions options = required()
                .withProperty("table-name", "*")
                .withProperty("sink.properties.format", "json")
                .withProperty("sink.properties.ignore_json_size", "false")
                .withProperty("sink.properties.max_filter_ratio", "0.1")
                .build();
        options.addTableProperties(StreamLoadTableProperties.builder()
                .database("test").table("order_items")
                .addProperty("max_filter_ratio", "0")
                .addProperty("partial_update", "true")
                .build());

        assertThat(options.streamLoadHeadersFor("test", "orders")).containsOnly(
                entry("timeout", "600"), entry("format", "json"), entry("strip_outer_array", "true"),
                entry("ignore_json_size", "false"), entry("max_filter_ratio", "0.1"), entry("strict_mode", "true"));
        assertThat(options.streamLoadHeadersFor("test", "order_items")).containsOnly(
                entry("timeout", "600"), entry("format", "json"), entry("strip_outer_array", "true"),
                entry("ignore_json_size", "false"), entry("max_filter_ratio", "0"), entry("partial_update", "true"),
                entry("strict_mode", "true"));
    }

    /** A value that does not convert is refused by default, never stored as NULL; the servers' default on request. */
    @Test
    void strictModeIsOnUnlessTheSinkPropertiesTurnItOff() {
        assertThat(required().build().streamLoadHeadersFor("test", "orders")).containsEntry("strict_mode", "true");
        assertThat(required().withProperty("sink.properties.strict_mode", "false").build()
                .streamLoadHeadersFor("test", "orders")).containsEntry("strict_mode", "false");
        StarRocksSinkOptions perTable = required().withProperty("table-name", "*").build();
        perTable.addTableProperties(StreamLoadTableProperties.builder().database("test").table("logs")
                .addProperty("strict_mode", "false").build());
        assertThat(perTable.streamLoadHeadersFor("test", "logs")).containsEntry("strict_mode", "false");
        assertThat(perTable.streamLoadHeadersFor("test", "orders")).containsEntry("strict_mode", "true");
    }

    @Test
    void csvHeadersGetNoJsonDefaults() {
        StarRocksSinkOptions options = required().withProperty("sink.properties.timeout", "301").build();

        assertThat(options.streamLoadHeadersFor("test", "orders"))
                .containsOnly(entry("timeout", "301"), entry("format", "csv"), entry("strict_mode", "true"));
    }

    @Test
    void tablePropertiesAreKeptInOrderAndFoundByTable() {
        StarRocksSinkOptions options = required().withProperty("table-name", "*").build();
        StreamLoadTableProperties items = StreamLoadTableProperties.builder().database("test").table("order_items").build();
        StreamLoadTableProperties orders = StreamLoadTableProperties.builder().database("test").table("orders").build();

        assertThat(options.addTableProperties(items)).isSameAs(options);
        options.addTableProperties(orders);

        assertThat(options.getTableProperties()).containsExactly(items, orders);
        assertThat(options.findTableProperties("test", "orders")).contains(orders);
        assertThat(options.findTableProperties("test", "missing")).isEmpty();
    }

    @Test
    void tablePropertiesForTheSameTableTwiceAreRejected() {
        StarRocksSinkOptions options = required().build();
        options.addTableProperties(StreamLoadTableProperties.builder().database("test").table("orders").build());

        assertThatThrownBy(() -> options.addTableProperties(
                StreamLoadTableProperties.builder().database("test").table("orders").build()))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageContaining("'test.orders' were already added");
    }

    @Test
    void tablePropertiesMustMatchAFixedDatabaseAndTable() {
        StarRocksSinkOptions options = required().build();

        assertThatThrownBy(() -> options.addTableProperties(
                StreamLoadTableProperties.builder().database("other").table("orders").build()))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessage("Table properties for 'other.orders' do not match sink option 'database-name' = 'test': "
                        + "expected database 'test' or 'database-name' = '*'");
        assertThatThrownBy(() -> options.addTableProperties(
                StreamLoadTableProperties.builder().database("test").table("items").build()))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessage("Table properties for 'test.items' do not match sink option 'table-name' = 'orders': "
                        + "expected table 'orders' or 'table-name' = '*'");
        assertThat(options.getTableProperties()).isEmpty();
    }

    @Test
    void tablePropertiesObeyTheHeaderRules() {
        StarRocksSinkOptions multiTable = required()
                .withProperty("database-name", "*").withProperty("table-name", "*")
                .withProperty("sink.version", "V2")
                .withProperty("sink.transaction.multi-table.enabled", "true")
                .withProperty("sink.buffer-flush.interval-ms", "60000")
                .build();

        assertThatThrownBy(() -> multiTable.addTableProperties(StreamLoadTableProperties.builder()
                .database("test").table("orders").addProperty("enable_merge_commit", "true").build()))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageStartingWith("Invalid sink option 'sink.properties.enable_merge_commit' = 'true': merge commit "
                        + "cannot be combined with 'sink.transaction.multi-table.enabled' = 'true'")
                .hasMessageEndingWith("(table properties of 'test.orders')");
        assertThatThrownBy(() -> multiTable.addTableProperties(StreamLoadTableProperties.builder()
                .database("test").table("orders").addProperty("timeout", "60").build()))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageContaining("'sink.properties.timeout' = '60'")
                .hasMessageContaining("'sink.buffer-flush.interval-ms' = '60000' ms")
                .hasMessageEndingWith("(table properties of 'test.orders')");
        assertThatThrownBy(() -> multiTable.addTableProperties(StreamLoadTableProperties.builder()
                .database("test").table("orders").addProperty("format", "parquet").build()))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessage("Invalid sink option 'sink.properties.format' = 'parquet': expected one of 'csv', 'json'"
                        + " (table properties of 'test.orders')");
        assertThat(multiTable.getTableProperties()).isEmpty();
    }

    @Test
    void toStringMasksThePassword() {
        StarRocksSinkOptions options = required().withProperty("password", "hunter2").build();

        assertThat(options.toString()).contains("password=***", "username=root").doesNotContain("hunter2");
    }

    @Test
    void survivesJavaSerializationWithTableProperties() throws Exception {
        StarRocksSinkOptions options = required()
                .withProperty("table-name", "*")
                .withProperty("sink.properties.format", "json")
                .build();
        options.addTableProperties(StreamLoadTableProperties.builder()
                .database("test").table("order_items").addProperty("ignore_json_size", "true").build());

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(options);
        }
        StarRocksSinkOptions copy;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            copy = (StarRocksSinkOptions) in.readObject();
        }

        assertThat(copy.toMap()).isEqualTo(options.toMap());
        assertThat(copy.getTableProperties()).isEqualTo(options.getTableProperties());
        assertThat(copy.getLoadUrls()).isEqualTo(List.of("http://127.0.0.1:8030"));
    }
}
