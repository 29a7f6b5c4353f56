package io.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.job.JobIdentityCheck;
import io.lockstep.app.job.StateRestore;
import io.lockstep.app.kafka.CommittedStartOffsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The runnable jar's logging (src/main/resources/simplelogger.properties, WARN by default) keeps the INFO lines a user
 * of {@code lockstep run} needs at the default level: where each Kafka partition starts, and where the job's state
 * comes from when it is not its own directory's.
 */
class RunnableJarLoggingTest {

    @Test
    void theStartLinesOfEachPartitionAndOfTheRestoredStateShowAtTheDefaultLevel() throws Exception {
        Properties jarLogging = new Properties();
        try (var in = Files.newBufferedReader(Path.of("src", "main", "resources", "simplelogger.properties"))) {
            jarLogging.load(in);
        }
        assertThat(jarLogging.getProperty("org.slf4j.simpleLogger.defaultLogLevel")).isEqualTo("warn");
        for (Class<?> shown : new Class<?>[] {CommittedStartOffsets.class, StateRestore.class,
            JobIdentityCheck.class}) {
            assertThat(jarLogging.getProperty("org.slf4j.simpleLogger.log." + shown.getName())).as(shown.getName())
                    .isEqualTo("info");
        }
    }
}
