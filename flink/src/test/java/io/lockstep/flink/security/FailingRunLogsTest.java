package io.lockstep.flink.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import com.starrocks.connector.flink.table.sink.SinkFunctionFactory;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import io.lockstep.flink.sink.SinkSettings;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Security of the logs (docs/reliability.md#security--flink-iolockstepflinksecurity): the logs of failing jobs,
 * captured from the test logger (slf4j-simple writes to {@code System.err}), hold no password, no Authorization header
 * and no row payload at WARN or above, while they do report the failure. One job fails on a data error (the server's
 * error log quotes the rejected row; the sink's {@code sink.sanitize-error-log}, on by default, cuts it out), one on
 * wrong credentials.
 */
class FailingRunLogsTest {
    private static final String PASSWORD = "pw-S3CRET-4711";
    private static final String PAYLOAD = "PAYLOAD-7f3a9-private-note";
    private static final Pattern ENTRY_START = Pattern.compile("^\\[[^\\]]*\\] (TRACE|DEBUG|INFO|WARN|ERROR) ");

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(1)
            .setConfiguration(new Configuration().set(RestartStrategyOptions.RESTART_STRATEGY, "none"))
            .build());

    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder()
            .user("loader", PASSWORD)
            .ddl("CREATE DATABASE shop; CREATE TABLE shop.orders (order_id BIGINT NOT NULL, note VARCHAR(64), "
                    + "total DECIMAL(12, 2)) PRIMARY KEY (order_id) DISTRIBUTED BY HASH(order_id);"));

    @Test
    void aDataErrorIsLoggedWithoutTheRowOrTheCredentials() throws Exception {
        // Braces outside, broken inside: the sink passes it on, the server rejects it and its error log quotes it.
        String row = "{\"order_id\":1,\"note\":\"" + PAYLOAD + "\",\"total\":}";
        List<String> warnings = warningsOfFailingRun(options(PASSWORD), row, "too many filtered rows");

        assertThat(String.join("\n", warnings)).as("the error log excerpt is there, without the row")
                .contains("error log ").contains("<row values removed>");
        assertNoSecrets(warnings);
    }

    @Test
    void wrongCredentialsAreLoggedWithoutThePassword() throws Exception {
        String wrong = "wrong-" + PASSWORD;
        String row = "{\"order_id\":1,\"note\":\"" + PAYLOAD + "\",\"total\":1.50}";
        List<String> warnings = warningsOfFailingRun(options(wrong), row, "HTTP 401");

        assertNoSecrets(warnings);
        assertThat(String.join("\n", warnings)).doesNotContain(wrong);
    }

    /** The option is wired: on by default, off on request (then the excerpt keeps the rows, as StarRocks' does). */
    @Test
    void sanitizeErrorLogIsOnByDefault() {
        assertThat(SinkSettings.from(options(PASSWORD).build()).clientConfig().sanitizeErrorLog()).isTrue();
        assertThat(SinkSettings.from(options(PASSWORD).withProperty("sink.sanitize-error-log", "false").build())
                .clientConfig().sanitizeErrorLog()).isFalse();
    }

    private static void assertNoSecrets(List<String> warnings) {
        for (String entry : warnings) {
            assertThat(entry).as("a WARN/ERROR log entry").doesNotContain(PASSWORD)
                    .doesNotContainIgnoringCase("authorization")
                    .doesNotContain("Basic ")
                    .doesNotContain(PAYLOAD);
        }
    }

    private StarRocksSinkOptions.Builder options(String password) {
        return StarRocksSinkOptions.builder()
                .withProperty("load-url", sr.emulator().feUrl())
                .withProperty("database-name", "*")
                .withProperty("table-name", "*")
                .withProperty("username", "loader")
                .withProperty("password", password)
                .withProperty("sink.version", "V2")
                .withProperty("sink.transaction.multi-table.enabled", "true")
                .withProperty("sink.buffer-flush.interval-ms", "100")
                .withProperty("sink.max-retries", "0")
                .withProperty("sink.label-prefix", "sec")
                .withProperty("sink.properties.format", "json");
    }

    /**
     * Runs a one-row job that must fail with {@code expectedFailure}, capturing {@code System.err} meanwhile.
     *
     * @return the WARN and ERROR log entries (each with its stack trace lines); at least one names the failure
     */
    @SuppressWarnings("deprecation")
    private List<String> warningsOfFailingRun(StarRocksSinkOptions.Builder options, String json,
            String expectedFailure) throws Exception {
        DefaultStarRocksRowData row = new DefaultStarRocksRowData(null, "shop", "orders", json);
        row.setSourcePartition(0);
        row.setTransactionEnd(true);
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(new Tee(original, captured), true, StandardCharsets.UTF_8));
        try {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setParallelism(1);
            env.fromData(row).keyBy(DefaultStarRocksRowData::getSourcePartition)
                    .addSink(SinkFunctionFactory.createSinkFunction(options.build()));
            JobClient job = env.executeAsync("failing run");
            assertThatThrownBy(() -> job.getJobExecutionResult().get(60, TimeUnit.SECONDS))
                    .hasStackTraceContaining(expectedFailure);
        } finally {
            System.err.flush();
            System.setErr(original);
        }
        List<String> warnings = warnEntries(captured.toString(StandardCharsets.UTF_8));
        assertThat(String.join("\n", warnings)).as("the failure is logged at WARN or above")
                .contains(expectedFailure);
        assertThat(captured.toString(StandardCharsets.UTF_8)).as("the password, at any level").doesNotContain(PASSWORD);
        return warnings;
    }

    /** Splits the log into entries (a header line and its continuation lines) and keeps WARN and ERROR ones. */
    static List<String> warnEntries(String log) {
        List<String> entries = new ArrayList<>();
        StringBuilder current = null;
        boolean keep = false;
        for (String line : log.split("\n", -1)) {
            var m = ENTRY_START.matcher(line);
            if (m.find()) {
                if (current != null && keep) {
                    entries.add(current.toString());
                }
                current = new StringBuilder(line);
                keep = m.group(1).equals("WARN") || m.group(1).equals("ERROR");
            } else if (current != null) {
                current.append('\n').append(line);
            }
        }
        if (current != null && keep) {
            entries.add(current.toString());
        }
        return entries;
    }

    /** Writes to the original stream and to the capture. */
    private static final class Tee extends OutputStream {
        private final OutputStream a;
        private final OutputStream b;

        Tee(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public synchronized void write(int c) throws java.io.IOException {
            a.write(c);
            b.write(c);
        }

        @Override
        public synchronized void write(byte[] buf, int off, int len) throws java.io.IOException {
            a.write(buf, off, len);
            b.write(buf, off, len);
        }

        @Override
        public synchronized void flush() throws java.io.IOException {
            a.flush();
            b.flush();
        }
    }
}
