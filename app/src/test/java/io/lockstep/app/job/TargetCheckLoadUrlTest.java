package io.lockstep.app.job;

import static io.lockstep.app.testing.StarRocksEmulatorExtension.BANK_DDL;
import static org.assertj.core.api.Assertions.assertThat;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.app.route.TableRouter;
import io.lockstep.app.route.UnknownTableMode;
import io.lockstep.app.testing.StarRocksEmulatorExtension;
import io.lockstep.emulator.StarRocksEmulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The pre-flight check against the address given as {@code --load-url}: a BE's HTTP port (it answers the FE's
 * paths with 404) is named as such, with the FE port to use instead, rather than as a bare 404.
 */
class TargetCheckLoadUrlTest {
    @RegisterExtension
    final StarRocksEmulatorExtension starRocks = new StarRocksEmulatorExtension();

    @Test
    void aBeHttpPortGivenAsLoadUrlIsNamedAsOne() throws Exception {
        StarRocksEmulator emulator = starRocks.start(BANK_DDL);
        String be = emulator.beUrl();

        TargetCheck.Result result = TargetCheck.check(options(be), TableRouter.parse(null, "bank",
                UnknownTableMode.FAIL), null);

        assertThat(result.problems()).containsExactly("target " + be + " looks like a StarRocks BE's HTTP port (its "
                + "/api/health answers as a BE's does; the BE http port is 8040 by default), not the FE's: --load-url "
                + "takes the FE's HTTP port (http_port, 8030 by default)");
    }

    @Test
    void theFeHttpPortPasses() throws Exception {
        starRocks.start(BANK_DDL);

        assertThat(TargetCheck.check(options(starRocks.feUrl()), TableRouter.parse(null, "bank",
                UnknownTableMode.FAIL), null).problems()).isEmpty();
    }

    /** The column types are read through --jdbc-url: a port that does not answer is named before the job starts. */
    @Test
    void aJdbcUrlThatDoesNotAnswerIsNamedAndTheQueryPortPasses() throws Exception {
        StarRocksEmulator emulator = starRocks.start(BANK_DDL);
        int closed;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        String wrong = "jdbc:mysql://127.0.0.1:" + closed;

        TargetCheck.Result refused = TargetCheck.check(options(emulator.feUrl(), wrong),
                TableRouter.parse(null, "bank", UnknownTableMode.FAIL), null);
        TargetCheck.Result right = TargetCheck.check(options(emulator.feUrl(), emulator.jdbcUrl()),
                TableRouter.parse(null, "bank", UnknownTableMode.FAIL), null);

        assertThat(refused.problems()).singleElement().asString()
                .startsWith("cannot use --jdbc-url " + wrong + ": ")
                .endsWith("(check --jdbc-url: the StarRocks FE's MySQL-protocol port, query_port, default 9030)")
                .doesNotContain("\n");
        assertThat(right.problems()).isEmpty();
    }

    private static StarRocksSinkOptions options(String loadUrl, String jdbcUrl) {
        return builder(loadUrl).withProperty("jdbc-url", jdbcUrl).build();
    }

    private static StarRocksSinkOptions options(String loadUrl) {
        return builder(loadUrl).build();
    }

    private static StarRocksSinkOptions.Builder builder(String loadUrl) {
        return StarRocksSinkOptions.builder()
                .withProperty("load-url", loadUrl)
                .withProperty("database-name", "*")
                .withProperty("table-name", "*")
                .withProperty("username", "root")
                .withProperty("password", "")
                .withProperty("sink.properties.format", "json")
                .withProperty("sink.version", "V2")
                .withProperty("sink.transaction.multi-table.enabled", "true");
    }
}
