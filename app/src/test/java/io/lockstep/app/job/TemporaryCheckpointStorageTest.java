package io.lockstep.app.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class TemporaryCheckpointStorageTest {

    @Test
    void aRunWithoutStateCheckpointsIntoAFreshTemporaryDirectoryNotTheJobManagersMemory() throws Exception {
        Configuration settings = new Configuration();
        Path first = TemporaryCheckpointStorage.configure(settings);
        assertThat(settings.get(CheckpointingOptions.CHECKPOINT_STORAGE)).isEqualTo("filesystem");
        assertThat(settings.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY)).isEqualTo(first.toUri().toString());
        assertThat(first).isDirectory();
        assertThat(first.getFileName().toString()).startsWith("lockstep-checkpoints-");
        try (var entries = Files.list(first)) {
            assertThat(entries).isEmpty();
        }
        Path second = TemporaryCheckpointStorage.configure(new Configuration());
        assertThat(second).isNotEqualTo(first); // two runs side by side never share checkpoints
    }
}
