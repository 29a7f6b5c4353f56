package io.lockstep.flink.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/options.md} (repository root) must equal what the catalogue renders. Regenerate with
 * {@code mvn -pl flink test -Dtest=SinkOptionsMarkdownTest -Dlockstep.docs.regenerate=true}.
 */
class SinkOptionsMarkdownTest {

    /** Surefire runs with the module directory as working directory. */
    private static final Path DOCS = Path.of("..", "docs", "options.md");

    @Test
    void docsOptionsMdMatchesTheCatalogue() throws Exception {
        String rendered = SinkOptionsMarkdown.render();
        if (Boolean.getBoolean("lockstep.docs.regenerate")) {
            Files.writeString(DOCS, rendered, StandardCharsets.UTF_8);
        }

        assertThat(Files.readString(DOCS, StandardCharsets.UTF_8))
                .as("docs/options.md is stale: regenerate it from SinkOptionDefinitions (see this test's Javadoc)")
                .isEqualTo(rendered);
    }

    @Test
    void everyCatalogueEntryHasARowWithItsDefault() {
        String rendered = SinkOptionsMarkdown.render();
        for (SinkOption<?> option : SinkOptionDefinitions.ALL) {
            assertThat(rendered).contains("| `" + option.key() + "` | " + option.typeName() + " | "
                    + option.defaultText() + " | ");
        }
        for (String key : SinkOptionDefinitions.UNSUPPORTED_CONNECTOR_OPTIONS.keySet()) {
            assertThat(rendered).contains("| `" + key + "` | ");
        }
    }
}
