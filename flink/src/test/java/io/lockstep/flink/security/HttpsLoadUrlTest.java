package io.lockstep.flink.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.SinkFunctionFactory;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.emulator.StarRocksEmulator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;
import org.apache.flink.streaming.api.operators.StreamSink;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * https load-urls (docs/reliability.md#security--flink-iolockstepflinksecurity): the emulator serves FE and BE over TLS
 * with a self-signed certificate made here with the JDK's {@code keytool}; the sink trusts it through the JVM's
 * standard trust store properties ({@code javax.net.ssl.trustStore}, {@code trustStorePassword},
 * {@code trustStoreType}) and commits a multi-table transaction through the FE's 307 redirect to the https BE. Without
 * the trust store the handshake fails, and the error names the address.
 */
class HttpsLoadUrlTest {
    private static final String STORE_PASSWORD = "changeit-test";
    private static final String[] TRUST_PROPERTIES = {"javax.net.ssl.trustStore", "javax.net.ssl.trustStorePassword",
        "javax.net.ssl.trustStoreType"};

    @TempDir
    static Path dir;
    private static Path keyStore;
    private static Path trustStore;
    private static StarRocksEmulator sr;
    private static final List<String> savedProperties = new ArrayList<>();

    @BeforeAll
    static void startTlsEmulator() throws Exception {
        keyStore = dir.resolve("emulator.p12");
        trustStore = dir.resolve("trust.p12");
        Path cert = dir.resolve("emulator.pem");
        keytool("-genkeypair", "-alias", "emulator", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-keystore", keyStore.toString(),
                "-storetype", "PKCS12", "-storepass", STORE_PASSWORD, "-keypass", STORE_PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "emulator", "-keystore", keyStore.toString(), "-storepass",
                STORE_PASSWORD, "-file", cert.toString());
        keytool("-importcert", "-noprompt", "-alias", "emulator", "-file", cert.toString(), "-keystore",
                trustStore.toString(), "-storetype", "PKCS12", "-storepass", STORE_PASSWORD);
        sr = StarRocksEmulator.builder().tls(keyStore, STORE_PASSWORD)
                .ddl("CREATE DATABASE shop; CREATE TABLE shop.orders (order_id BIGINT NOT NULL, status VARCHAR(16)) "
                        + "PRIMARY KEY (order_id) DISTRIBUTED BY HASH(order_id);"
                        + "CREATE TABLE shop.order_items (order_id BIGINT NOT NULL, line_no INT NOT NULL) "
                        + "PRIMARY KEY (order_id, line_no) DISTRIBUTED BY HASH(order_id);")
                .build().start();
        for (String key : TRUST_PROPERTIES) {
            savedProperties.add(System.getProperty(key));
        }
    }

    @AfterAll
    static void stop() {
        restoreTrustProperties();
        if (sr != null) {
            sr.close();
        }
    }

    @Test
    void theEmulatorServesHttpsAndRedirectsToAnHttpsBackend() {
        assertThat(sr.feUrl()).startsWith("https://127.0.0.1:");
        assertThat(sr.beUrl()).startsWith("https://127.0.0.1:");
    }

    @Test
    void aSinkTrustingTheCertificateCommitsOverHttps() throws Exception {
        System.setProperty("javax.net.ssl.trustStore", trustStore.toString());
        System.setProperty("javax.net.ssl.trustStorePassword", STORE_PASSWORD);
        System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
        try {
            commitOneTransaction(1);
        } finally {
            restoreTrustProperties();
        }
        assertThat(count("shop.orders")).isEqualTo(1);
        assertThat(count("shop.order_items")).isEqualTo(1);
    }

    @Test
    void withoutTrustingTheCertificateTheHandshakeFailsNamingTheAddress() {
        restoreTrustProperties();
        assertThatThrownBy(() -> commitOneTransaction(2))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("POST " + sr.feUrl() + "/api/transaction/begin")
                        .containsAnyOf("PKIX path building failed", "unable to find valid certification path"));
        assertThat(count("shop.orders WHERE order_id = 2")).isZero();
    }

    private static void commitOneTransaction(long orderId) throws Exception {
        StarRocksSinkOptions options = StarRocksSinkOptions.builder()
                .withProperty("load-url", sr.feUrl())
                .withProperty("database-name", "*")
                .withProperty("table-name", "*")
                .withProperty("username", "root")
                .withProperty("sink.version", "V2")
                .withProperty("sink.transaction.multi-table.enabled", "true")
                .withProperty("sink.buffer-flush.interval-ms", "3600000")
                .withProperty("sink.properties.timeout", "7200")
                .withProperty("sink.max-retries", "0")
                .withProperty("sink.label-prefix", "tls")
                .withProperty("sink.properties.format", "json")
                .build();
        SinkFunction<DefaultStarRocksRowData> sink = SinkFunctionFactory.createSinkFunction(options);
        try (OneInputStreamOperatorTestHarness<DefaultStarRocksRowData, Object> h =
                new OneInputStreamOperatorTestHarness<>(new StreamSink<>(sink), 1, 1, 0)) {
            h.getStreamConfig().setCheckpointingEnabled(true);
            h.setup();
            h.open();
            h.processElement(new StreamRecord<>(row("orders", "{\"order_id\":" + orderId + ",\"status\":\"NEW\"}",
                    false)));
            h.processElement(new StreamRecord<>(row("order_items", "{\"order_id\":" + orderId + ",\"line_no\":1}",
                    true)));
            h.snapshot(1, 0);
        }
    }

    private static DefaultStarRocksRowData row(String table, String json, boolean end) {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, "shop", table, json);
        row.setSourcePartition(0);
        row.setTransactionEnd(end);
        return row;
    }

    private static long count(String table) {
        return ((Number) sr.query("SELECT COUNT(*) FROM " + table).rows().get(0).get(0)).longValue();
    }

    private static void restoreTrustProperties() {
        for (int i = 0; i < TRUST_PROPERTIES.length && i < savedProperties.size(); i++) {
            if (savedProperties.get(i) == null) {
                System.clearProperty(TRUST_PROPERTIES[i]);
            } else {
                System.setProperty(TRUST_PROPERTIES[i], savedProperties.get(i));
            }
        }
    }

    /** Runs the JDK's keytool (bounded) and fails with its output when it fails. */
    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Path log = Files.createTempFile(dir, "keytool", ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("keytool did not finish within 60 s: " + command);
        }
        if (process.exitValue() != 0) {
            throw new IOException("keytool failed (" + process.exitValue() + "): " + Files.readString(log));
        }
    }
}
