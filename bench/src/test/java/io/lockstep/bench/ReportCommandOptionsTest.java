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

    @Test
    void theFormatsAndTablesSectionsTakeTheirSizesAndCanBeSkipped() {
        ReportCommand byDefault = new ReportCommand();
        new CommandLine(byDefault).parseArgs();
        assertThat(byDefault.formatAndTables.formatRows).isEqualTo(300_000);
        assertThat(byDefault.formatAndTables.tableMs).isEqualTo(8000);

        ReportCommand sized = new ReportCommand();
        new CommandLine(sized).parseArgs("--format-rows", "5000", "--table-ms", "700", "--skip", "formats,tables");
        assertThat(sized.formatAndTables.formatRows).isEqualTo(5000);
        assertThat(sized.formatAndTables.tableMs).isEqualTo(700);
        assertThat(sized.skip).containsExactly("formats", "tables");
    }
}
