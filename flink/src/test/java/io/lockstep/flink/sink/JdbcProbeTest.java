package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.StarRocksEmulator;
import org.junit.jupiter.api.Test;

/** The jdbc-url probe never stops a sink: absent, driverless and unreachable URLs each end in a logged outcome. */
class JdbcProbeTest {

    @Test
    void anAbsentUrlIsNotProbed() {
        assertThat(JdbcProbe.probe(null, "root", "", 100)).isEqualTo(JdbcProbe.Outcome.NOT_CONFIGURED);
        assertThat(JdbcProbe.probe(" ", "root", "", 100)).isEqualTo(JdbcProbe.Outcome.NOT_CONFIGURED);
    }

    /** Lockstep ships no MySQL driver; no driver on the test classpath accepts this scheme. */
    @Test
    void withoutADriverTheProbeIsSkipped() {
        assertThat(JdbcProbe.probe("jdbc:no-such-driver://127.0.0.1:9030", "root", "pw", 100))
                .isEqualTo(JdbcProbe.Outcome.NO_DRIVER);
    }

    /** The emulator's MySQL-protocol query port, with MySQL Connector/J (a test dependency) as the driver. */
    @Test
    void theEmulatorsQueryPortIsReachedWithConnectorJ() throws Exception {
        try (StarRocksEmulator sr = StarRocksEmulator.builder().user("loader", "pw").build().start()) {
            assertThat(JdbcProbe.probe(sr.jdbcUrl(), "loader", "pw", 5_000)).isEqualTo(JdbcProbe.Outcome.REACHED);
            assertThat(sr.queryPortLogins()).isEqualTo(1);
            assertThat(JdbcProbe.probe(sr.jdbcUrl(), "loader", "wrong", 5_000))
                    .isEqualTo(JdbcProbe.Outcome.UNREACHABLE);
        }
    }

    /** H2 (on the test classpath through the emulator) has a driver but no such server: unreachable, no throw. */
    @Test
    void anUnreachableServerIsReportedWithoutThrowing() {
        assertThat(JdbcProbe.probe("jdbc:h2:tcp://127.0.0.1:1/nothing", "root", "pw", 500))
                .isEqualTo(JdbcProbe.Outcome.UNREACHABLE);
    }

    @Test
    void aReachableServerIsProbedForItsVersion() {
        assertThat(JdbcProbe.probe("jdbc:h2:mem:probe", "sa", "", 500)).isEqualTo(JdbcProbe.Outcome.REACHED);
    }

    @Test
    void theLoggedUrlDropsItsQueryWhichMayHoldAPassword() {
        assertThat(JdbcProbe.withoutQuery("jdbc:mysql://fe:9030/db?user=root&password=secret"))
                .isEqualTo("jdbc:mysql://fe:9030/db?...");
        assertThat(JdbcProbe.withoutQuery("jdbc:mysql://fe:9030")).isEqualTo("jdbc:mysql://fe:9030");
    }
}
