package io.lockstep.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The jdbc-url probe never stops a sink: absent, driverless and unreachable URLs each end in a logged outcome. */
class JdbcProbeTest {

    @Test
    void anAbsentUrlIsNotProbed() {
        assertThat(JdbcProbe.probe(null, "root", "", 100)).isEqualTo(JdbcProbe.Outcome.NOT_CONFIGURED);
        assertThat(JdbcProbe.probe(" ", "root", "", 100)).isEqualTo(JdbcProbe.Outcome.NOT_CONFIGURED);
    }

    /** Lockstep ships no MySQL driver, and the test classpath has none. */
    @Test
    void withoutADriverTheProbeIsSkipped() {
        assertThat(JdbcProbe.probe("jdbc:mysql://127.0.0.1:9030", "root", "pw", 100))
                .isEqualTo(JdbcProbe.Outcome.NO_DRIVER);
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
