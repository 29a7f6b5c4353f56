package io.lockstep.app.cli;

import io.lockstep.app.demo.DemoConfig;
import io.lockstep.app.demo.DemoResult;
import io.lockstep.app.demo.DemoTarget;
import io.lockstep.app.demo.DorisDemoTarget;
import io.lockstep.app.demo.EmulatorDemoTarget;
import io.lockstep.app.demo.ShopDemo;
import io.lockstep.core.server.Target;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code lockstep demo}: everything in this JVM (Kafka, the StarRocks-compatible server with the shop schema, or its
 * Doris mode with {@code --target doris}, the generator, the job at parallelism 2), a progress line every second and
 * a verification table at the end ({@link ShopDemo}). Exit code 0 only when every required check is green, 1
 * otherwise, 2 for an invalid option.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Shop CDC traffic through in-JVM Kafka and Flink into an in-JVM StarRocks-compatible "
                + "server (or its Apache Doris mode), checking atomicity on snapshots every 100 ms and the final "
                + "tables row by row.")
public final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--duration", converter = DurationMs.class, paramLabel = "DURATION",
            description = "How long the generator writes (default: 45s).")
    long durationMs = DemoConfig.DEFAULT_TRAFFIC_MS;

    @Option(names = "--rate", description = "Source transactions per second (default: ${DEFAULT-VALUE}).")
    double rate = DemoConfig.DEFAULT_RATE;

    @Option(names = "--partitions", description = "Partitions of the CDC topic (default: ${DEFAULT-VALUE}).")
    int partitions = 2;

    @Option(names = "--parallelism", description = "Parallelism of the job (default: ${DEFAULT-VALUE}).")
    int parallelism = 2;

    @Option(names = "--seed", description = "Seed of the workload (default: ${DEFAULT-VALUE}).")
    long seed = 2026;

    @Option(names = "--checkpoint-interval", converter = DurationMs.class, paramLabel = "DURATION",
            description = "Flink checkpoint interval; the sink commits at each one (default: 1s).")
    long checkpointIntervalMs = 1_000L;

    @Option(names = "--commit-interval", converter = DurationMs.class, paramLabel = "DURATION",
            description = "The sink's timer commit interval (default: 10s).")
    long commitIntervalMs = 10_000L;

    @Option(names = "--kill-task-after", paramLabel = "TRANSACTIONS",
            description = "Kill the task once, after this many source transactions on a subtask and a completed "
                    + "checkpoint; the job restarts from the checkpoint (default: never).")
    long killTaskAfter = -1;

    @Option(names = "--drain-timeout", converter = DurationMs.class, paramLabel = "DURATION",
            description = "Longest wait after the traffic for the tables to catch up (default: 60s).")
    long drainTimeoutMs = 60_000L;

    @Option(names = "--target", paramLabel = "starrocks|doris",
            description = "Where to load: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Target target = Target.STARROCKS;

    @Override
    public Integer call() throws Exception {
        DemoConfig config;
        try {
            config = new DemoConfig(durationMs, rate, partitions, parallelism, seed, checkpointIntervalMs,
                    commitIntervalMs, killTaskAfter, drainTimeoutMs, 100L);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintStream out = System.out;
        DemoResult result = new ShopDemo(config, target(), out).run();
        result.print(out);
        out.flush();
        return result.allGreen() ? 0 : CommandLine.ExitCode.SOFTWARE;
    }

    /**
     * @return a new, unstarted target for {@link #target}: the in-JVM StarRocks-compatible server of the emulator
     *     module, or its Apache Doris mode, loaded by the per-table exactly-once sink, where the cross-table
     *     invariants are reported, not required (docs/doris.md)
     */
    DemoTarget target() {
        return switch (target) {
            case STARROCKS -> new EmulatorDemoTarget();
            case DORIS -> new DorisDemoTarget();
        };
    }
}
