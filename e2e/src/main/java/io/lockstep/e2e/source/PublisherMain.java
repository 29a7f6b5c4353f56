package io.lockstep.e2e.source;

import io.lockstep.source.debezium.DebeziumKafkaPublisher;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The main class of a publisher JVM that {@link PublisherProcess} starts: it runs {@link DebeziumKafkaPublisher} with
 * the connector properties of a file until its standard input closes (then it stops cleanly) or the engine fails
 * (then it exits with status 2). It is meant to be killed: a {@code SIGKILL} stops it wherever it is, after the last
 * offset flush of its offset store, as a crashed Kafka Connect worker stops.
 *
 * <p>Arguments: {@code <connector properties file> <bootstrap servers>}. It prints one line when the engine has been
 * started and one when it stops; never the properties (they hold the database password).
 */
public final class PublisherMain {

    private PublisherMain() {
    }

    /**
     * @param args the connector properties file and the Kafka bootstrap servers
     */
    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 2) {
            System.err.println("usage: PublisherMain <connector properties file> <bootstrap servers>");
            System.exit(64);
        }
        Properties connector = new Properties();
        try (Reader reader = Files.newBufferedReader(Path.of(args[0]), StandardCharsets.UTF_8)) {
            connector.load(reader);
        }
        DebeziumKafkaPublisher publisher = DebeziumKafkaPublisher.start(connector, args[1]);
        System.out.println("publisher started: connector " + connector.getProperty("name") + ", offsets in "
                + connector.getProperty("offset.storage.file.filename", "(not a file)") + ", flush every "
                + connector.getProperty("offset.flush.interval.ms", "60000") + " ms");
        Thread stdinWatch = new Thread(() -> awaitEndOfInput(System.in), "stdin-watch");
        stdinWatch.setDaemon(true);
        stdinWatch.start();
        while (stdinWatch.isAlive()) {
            Throwable failure = publisher.failure();
            if (failure != null) {
                System.err.println("publisher failed: " + failure);
                failure.printStackTrace();
                System.exit(2);
            }
            Thread.sleep(100);
        }
        // the parent closed our input (or died): stop cleanly rather than linger as an orphan
        publisher.close();
        System.out.println("publisher stopped after " + publisher.published() + " records");
    }

    private static void awaitEndOfInput(InputStream in) {
        byte[] buffer = new byte[256];
        try {
            while (in.read(buffer) >= 0) {
                // nothing to read: the parent never writes, it only closes
            }
        } catch (IOException e) {
            // a broken pipe means the parent is gone: same as end of input
        }
    }
}
