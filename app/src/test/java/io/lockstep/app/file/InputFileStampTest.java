package io.lockstep.app.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stamp of an {@code --input} file tells a restore that the file grew or was edited since its state was kept. */
class InputFileStampTest {

    @Test
    void anAppendedOrEditedFileIsNamedWithItsLineCountsAndAnUnchangedOneIsNot(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("in.jsonl");
        Path state = dir.resolve("state");
        Files.writeString(file, "{\"a\":1}\n{\"a\":2}\n");
        InputFileStamp.write(state, file);

        assertThat(InputFileStamp.changeSince(state, file)).isEmpty();

        Files.writeString(file, "{\"a\":3}\n", StandardOpenOption.APPEND);
        assertThat(InputFileStamp.changeSince(state, file)).hasValueSatisfying(line -> assertThat(line)
                .startsWith("--input " + file + " changed since the state in " + state + " was written (2 lines then, "
                        + "3 lines now): a restored file job reads only the lines the file had")
                .doesNotContain("\n"));

        Files.writeString(file, "{\"a\":1}\n{\"a\":9}\n"); // same line count, other content
        assertThat(InputFileStamp.changeSince(state, file)).isPresent();
    }

    @Test
    void aStateWithoutStampAndAFileWithoutFinalLineBreakAreHandled(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("in.jsonl");
        Files.writeString(file, "{\"a\":1}\n{\"a\":2}");

        assertThat(InputFileStamp.changeSince(dir, file)).as("state of an earlier version: nothing to compare")
                .isEmpty();
        assertThat(InputFileStamp.of(file).lines()).isEqualTo(2);
    }
}
