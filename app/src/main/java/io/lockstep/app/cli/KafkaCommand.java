package io.lockstep.app.cli;

import io.lockstep.app.file.JsonLinesInput;
import io.lockstep.app.kafka.EmbeddedKafka;
import io.lockstep.app.kafka.JsonLinesLoader;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * {@code lockstep kafka}: a one-node Kafka broker in this JVM (KRaft, {@link EmbeddedKafka}) with a JSON-lines
 * file loaded into a topic ({@link JsonLinesLoader}), for trying {@code lockstep run} against Kafka without
 * installing one. Prints the bootstrap address and a matching {@code run} command, then serves until Ctrl-C.
 * The broker's data lives in a temporary directory and is gone when the command ends: on Ctrl-C or SIGTERM the
 * broker is stopped and the directory deleted before the JVM begins to exit.
 */
@Command(name = "kafka", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Start a local Kafka broker and load a JSON-lines file (one CDC message per line) into a "
                + "topic; serves until Ctrl-C.")
public final class KafkaCommand implements Callable<Integer> {


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
        // Ctrl-C / SIGTERM are taken as signals, not in a shutdown hook: at JVM exit every hook runs at once, and
        // Kafka's own hooks delete the broker's directories while it still writes its last checkpoint files, so the
        // broker is stopped (and its directory deleted) here, before the JVM begins to exit
        List<Signal> signals = new ArrayList<>();
        List<SignalHandler> previous = new ArrayList<>();
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            kafka.createTopic(name, 1);
            long messages = JsonLinesLoader.load(kafka.bootstrapServers(), name, JsonLinesInput.read(file));
            for (String signal : List.of("INT", "TERM")) {
                signals.add(new Signal(signal));
                previous.add(Signal.handle(signals.get(signals.size() - 1), s -> stopped.countDown()));
            }
            out.println("lockstep kafka: broker at " + kafka.bootstrapServers() + " (in this JVM); topic '" + name
                    + "' holds " + messages + " messages from " + file + "; stop with Ctrl-C");
            out.println("  e.g. java -jar app/target/lockstep.jar run --kafka-bootstrap " + kafka.bootstrapServers()
                    + " --topic " + name + " --format debezium --load-url 127.0.0.1:8030 --database DB --bounded");
            out.flush();
            stopped.await();
            out.println("lockstep kafka: stopping the broker");
            out.flush();
        } finally {
            for (int i = 0; i < signals.size(); i++) {
                Signal.handle(signals.get(i), previous.get(i));
            }
        }
        return 0;
    }
}
