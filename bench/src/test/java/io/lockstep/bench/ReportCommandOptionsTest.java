package io.lockstep.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The report's command-line flags parse to what their names say. */
class ReportCommandOptionsTest {
    @Test
    void profilingIsOnByDefaultAndNoProfileTurnsItOff() {
        ReportCommand byDefault = new ReportCommand();
        new CommandLine(byDefault).parseArgs();
        assertThat(byDefault.noProfile).isFalse();

        ReportCommand off = new ReportCommand();
        new CommandLine(off).parseArgs("--no-profile", "--repeats", "0");
        assertThat(off.noProfile).isTrue();
        assertThat(off.repeats).isZero();
    }
}
