package io.lockstep.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of the benchmark jar ({@code java -jar bench/target/lockstep-bench.jar <benchmark> [options]}).
 * Each subcommand is one measurement harness; none of them runs in the test suite.
 */
@Command(name = "lockstep-bench", mixinStandardHelpOptions = true,
        description = "Lockstep benchmarks: figures for the closing notes and the README.",
        subcommands = {ReportCommand.class, EmulatorIngestBenchmark.class, EngineThroughputBenchmark.class,
                MemoryBenchmark.class})
public final class BenchMain implements Runnable {

    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchMain()).execute(args));
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
