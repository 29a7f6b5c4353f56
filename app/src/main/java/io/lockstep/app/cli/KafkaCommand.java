package io.lockstep.app.cli;

import io.lockstep.app.file.JsonLinesInput;
import io.lockstep.app.kafka.EmbeddedKafka;
import io.lockstep.app.kafka.JsonLinesLoader;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep kafka}: a one-node Kafka broker in this JVM (KRaft, {@link EmbeddedKafka}) with a JSON-lines
 * file loaded into a topic ({@link JsonLinesLoader}), for trying {@code lockstep run} against Kafka without
 * installing one. Prints the bootstrap address and a matching {@code run} command, then serves until Ctrl-C.
 * The broker's data lives in a temporary directory and is gone when the command ends: on Ctrl-C or SIGTERM the
 * broker is stopped and the directory deleted before the JVM exits, within {@value #STOP_TIMEOUT_MS} ms.
 */
@Command(name = "kafka", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Start a local Kafka broker and load a JSON-lines file (one CDC message per line) into a "
                + "topic; serves until Ctrl-C.")
public final class KafkaCommand implements Callable<Integer> {

    /** Longest wait on Ctrl-C or SIGTERM for the broker to stop and its data to be deleted: 10 s. */
    static final long STOP_TIMEOUT_MS = 10_000L;

    @Spec
    CommandSpec spec;

    @Option(names = "--load", required = true, paramLabel = "FILE.jsonl",
            description = "The messages, one per line, written in order into partition 0.")
    Path file;

    @Option(names = "--topic", description = "The topic to create (default: the file name without .jsonl).")
    String topic;

    @Override
    public Integer call() throws Exception {
        if (!Files.isReadable(file)) {
            throw new ParameterException(spec.commandLine(), "--load " + file + ": no such readable file");
        }
        String name = topic != null ? topic : file.getFileName().toString().replaceFirst("\\.jsonl$", "");
        PrintWriter out = spec.commandLine().getOut();
        CountDownLatch stopped = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            kafka.createTopic(name, 1);
            long messages = JsonLinesLoader.load(kafka.bootstrapServers(), name, JsonLinesInput.read(file));
            out.println("lockstep kafka: broker at " + kafka.bootstrapServers() + " (in this JVM); topic '" + name
                    + "' holds " + messages + " messages from " + file + "; stop with Ctrl-C");
            out.println("  e.g. java -jar app/target/lockstep.jar run --kafka-bootstrap " + kafka.bootstrapServers()
                    + " --topic " + name + " --format debezium --load-url 127.0.0.1:8030 --database DB --bounded");
            out.flush();
            // Ctrl-C / SIGTERM: the JVM halts once its shutdown hooks return, so the hook waits (bounded) for this
            // thread to stop the broker and delete its data directory, which it would otherwise cut off
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                stopped.countDown();
                try {
                    if (!closed.await(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                        System.err.println("lockstep kafka: the broker did not stop within " + STOP_TIMEOUT_MS
                                + " ms; exiting anyway");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "lockstep-kafka-stop"));
            stopped.await();
            out.println("lockstep kafka: stopping the broker");
            out.flush();
        } finally {
            closed.countDown();
        }
        return 0;
    }
}
