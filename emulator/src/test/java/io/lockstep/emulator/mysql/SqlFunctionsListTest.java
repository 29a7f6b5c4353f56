package io.lockstep.emulator.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's list of query-port functions is the list the translator runs ({@link SqlFunctions#names()}). */
class SqlFunctionsListTest {
    @Test
    void everyFunctionThePortRunsIsListedInTheReadme() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        String section = readme.substring(readme.indexOf("- Functions (anything else answers"),
                readme.indexOf("`CAST(x AS STRING"));
        assertThat(SqlFunctions.names()).isNotEmpty().allSatisfy(name ->
                assertThat(section).as(name).contains("`" + name + "`"));
    }
}
