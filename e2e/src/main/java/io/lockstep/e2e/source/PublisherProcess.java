package io.lockstep.e2e.source;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A Debezium publisher ({@link PublisherMain} running {@code DebeziumKafkaPublisher}) in a JVM of its own, so that a
 * test can kill it hard ({@link #kill()}: {@code SIGKILL}) and start it again from the same offset file and the same
 * replication slot, as an operator restarts a crashed Kafka Connect worker. The offsets live in Kafka Connect's
 * {@code FileOffsetBackingStore} ({@link #withFileOffsets}); the engine writes them every
 * {@code offset.flush.interval.ms}, so everything published after the last flush is published again after a kill
 * (docs/input-formats.md, "Source commit positions and re-sends").
 *
 * <p>The child's class path is this JVM's; its output goes to {@link #log()}. Not thread-safe: one owner.
 */
public final class PublisherProcess implements AutoCloseable {

    private final Process process;
    private final Path log;

    private PublisherProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * @param connector connector properties ({@link DebeziumConnectors#postgres}); not changed
     * @param offsetFile the file Kafka Connect's {@code FileOffsetBackingStore} keeps the offsets in (created on the
     *     first flush; a restart reads it)
     * @param flushIntervalMs {@code offset.flush.interval.ms}: how often the engine flushes offsets, in ms (Kafka
     *     Connect's default is 60000). Debezium 3.6.1's embedded engine ({@code AsyncEmbeddedEngine}) flushes with the
     *     first batch (its clock of the last flush starts at 0), then this long after the previous flush, and also
     *     <b>whenever a poll returns no records</b> (the connector was idle for {@code poll.interval.ms}), whatever
     *     this interval
     * @return a copy of {@code connector} whose offsets live in {@code offsetFile}
     */
    public static Properties withFileOffsets(Properties connector, Path offsetFile, long flushIntervalMs) {
        Properties p = new Properties();
        p.putAll(connector);
        p.setProperty("offset.storage", "org.apache.kafka.connect.storage.FileOffsetBackingStore");
        p.setProperty("offset.storage.file.filename", offsetFile.toAbsolutePath().toString());
        p.setProperty("offset.flush.interval.ms", Long.toString(flushIntervalMs));
        return p;
    }

    /**
     * Starts a publisher JVM.
     *
     * @param connector the connector properties, offsets included ({@link #withFileOffsets})
     * @param bootstrapServers the Kafka brokers, {@code host:port}
     * @param dir a directory for the properties file and the log
     * @param name names the files ({@code <name>.properties}, {@code <name>.log})
     * @return the running child
     * @throws IOException when the files cannot be written or the JVM cannot be started
     */
    public static PublisherProcess start(Properties connector, String bootstrapServers, Path dir, String name)
            throws IOException {
        Path properties = dir.resolve(name + ".properties");
        try (Writer writer = Files.newBufferedWriter(properties, StandardCharsets.UTF_8)) {
            connector.store(writer, "connector properties of " + name);
        }
        Path log = dir.resolve(name + ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-XX:+UseSerialGC");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-Dorg.slf4j.simpleLogger.log.io.debezium=info");
        // each offset flush ("Submitting 1 entries to backing store") in the log
        command.add("-Dorg.slf4j.simpleLogger.log.org.apache.kafka.connect.storage.OffsetStorageWriter=debug");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(PublisherMain.class.getName());
        command.add(properties.toString());
        command.add(bootstrapServers);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.redirectErrorStream(true);
        builder.redirectOutput(log.toFile());
        return new PublisherProcess(builder.start(), log);
    }

    /** @return whether the child runs */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** @return the child's output (Debezium's log included) */
    public Path log() {
        return log;
    }

    /** Kills the child with {@code SIGKILL} and waits until it is gone: no offset flush, no clean stop. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /**
     * Stops the child cleanly (its input is closed: it closes the engine, which flushes the offsets) and waits up to
     * 30 s, then kills it.
     */
    @Override
    public void close() throws IOException, InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        process.getOutputStream().close();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            kill();
        }
    }
}
