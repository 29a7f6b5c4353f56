package io.lockstep.app.cli;

import io.lockstep.app.job.JobFailures;
import io.lockstep.emulator.cli.EmulatorMain;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import org.apache.commons.text.similarity.LevenshteinDistance;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * {@code lockstep}: the command line of the runnable jar ({@code java -jar app/target/lockstep.jar ...}).
 * Subcommands: {@code run} ({@link RunCommand}, the main job), {@code demo} ({@link DemoCommand}, everything
 * in-JVM), {@code kafka} ({@link KafkaCommand}, a local broker holding a JSON-lines file) and {@code emulator} (the emulator's {@link EmulatorMain}, the StarRocks-compatible server alone).
 *
 * <p>Exit codes: 0 success; 1 the job failed or the demo's verification failed; 2 a usage error (unknown or
 * invalid option, missing required option, an option value the job refuses), reported as one line
 * {@code lockstep <command>: <message naming the option>} on stderr, without a stack trace.
 */
@Command(name = "lockstep", mixinStandardHelpOptions = true, version = "lockstep 0.1.0-SNAPSHOT",
        description = "CDC transactions from Kafka into StarRocks, atomically across tables.",
        subcommands = {RunCommand.class, DemoCommand.class, KafkaCommand.class})
public final class LockstepMain implements Runnable {

    @Spec
    CommandSpec spec;

    /** Without a subcommand: a usage error listing them. */
    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing command: run, demo, kafka or emulator (see --help)");
    }

    /** Runs the command line and exits the JVM with its exit code. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * @return the configured command line: subcommands, case-insensitive enum values, and the one-line error
     *     handlers (usage errors exit 2, other failures exit 1)
     */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new LockstepMain());
        CommandLine emulator = new CommandLine(new EmulatorMain());
        emulator.setCommandName("emulator"); // its usage line reads `lockstep emulator`, as it is typed here
        cli.addSubcommand("emulator", emulator);
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println(qualifiedName(ex.getCommandLine()) + ": " + usageMessage(ex));
            err.flush();
            return CommandLine.ExitCode.USAGE;
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            err.println(qualifiedName(commandLine) + ": " + JobFailures.describe(ex));
            err.flush();
            return CommandLine.ExitCode.SOFTWARE;
        });
        return cli;
    }

    /**
     * @return the usage error's message; when the arguments hold an option the command does not know (a typo), that
     *     option with the closest known one instead ({@code unknown option '--kafka-bootstap', did you mean
     *     --kafka-bootstrap?}), even when picocli first noticed a required option missing (the typo'd one, often); an
     *     unknown command likewise ({@code unknown command 'rn', did you mean run?})
     */
    static String usageMessage(ParameterException ex) {
        CommandLine commandLine = ex.getCommandLine();
        List<String> unmatched = ex instanceof UnmatchedArgumentException u ? u.getUnmatched()
                : commandLine.getUnmatchedArguments();
        Optional<String> command = unknownCommand(commandLine, unmatched);
        if (command.isPresent()) {
            return command.get(); // what follows it is the unknown command's arguments
        }
        List<String> unknown = unmatched.stream().filter(a -> a.startsWith("-") && a.length() > 1)
                .map(a -> a.split("=", 2)[0]).toList();
        if (unknown.isEmpty()) {
            return ex.getMessage();
        }
        StringBuilder message = new StringBuilder();
        for (String option : unknown) {
            String closest = closest(option, commandLine.getCommandSpec().optionsMap().keySet());
            message.append(message.length() == 0 ? "" : "; ").append("unknown option '").append(option).append('\'')
                    .append(closest == null ? "" : ", did you mean " + closest + "?");
        }
        return message.toString();
    }

    /**
     * @return for a command with subcommands whose first unmatched argument is a word, {@code unknown command 'rn',
     *     did you mean run?} (the nearest subcommand, as {@link #closest} finds it) or {@code unknown command 'x'
     *     (commands: run, demo, kafka, emulator)}; empty otherwise
     */
    private static Optional<String> unknownCommand(CommandLine commandLine, List<String> unmatched) {
        if (commandLine.getSubcommands().isEmpty() || unmatched.isEmpty() || unmatched.get(0).startsWith("-")) {
            return Optional.empty();
        }
        String typed = unmatched.get(0);
        String closest = closest(typed, commandLine.getSubcommands().keySet());
        return Optional.of("unknown command '" + typed + "'" + (closest != null ? ", did you mean " + closest + "?"
                : " (commands: " + String.join(", ", commandLine.getSubcommands().keySet()) + ")"));
    }

    /**
     * @return the option name nearest to {@code typed} by edit distance (Levenshtein), if at most a third of its
     *     length away; else {@code null}. (picocli's own suggestions rank by cosine similarity of letter pairs, which
     *     offers {@code --password} for {@code --paralelism}.)
     */
    static String closest(String typed, Iterable<String> names) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String name : names) {
            int distance = distance(typed, name);
            if (distance < bestDistance) {
                best = name;
                bestDistance = distance;
            }
        }
        return best != null && bestDistance <= Math.max(2, best.length() / 3) ? best : null;
    }

    /**
     * Edit distance, except that a name the typed option contains or is contained in ({@code --kafka-bootstrap} in
     * {@code --kafka-bootstrap-servers}) counts 1, and one sharing a run of 9 or more characters with it
     * ({@code bootstrap} of {@code --bootstrap-server}) counts 2.
     */
    private static int distance(String typed, String name) {
        String a = typed.replaceFirst("^-+", "");
        String b = name.replaceFirst("^-+", "");
        if (!a.isEmpty() && !b.isEmpty() && (a.contains(b) || b.contains(a))) {
            return 1;
        }
        return Math.min(LevenshteinDistance.getDefaultInstance().apply(typed, name), commonRun(a, b) >= 9 ? 2 : Integer.MAX_VALUE);
    }

    private static int commonRun(String a, String b) {
        int longest = 0;
        for (int i = 0; i < a.length(); i++) {
            for (int j = 0; j < b.length(); j++) {
                int k = 0;
                while (i + k < a.length() && j + k < b.length() && a.charAt(i + k) == b.charAt(j + k)) {
                    k++;
                }
                longest = Math.max(longest, k);
            }
        }
        return longest;
    }

    /** {@code lockstep run}, {@code lockstep demo}, {@code lockstep emulator}, ... */
    private static String qualifiedName(CommandLine commandLine) {
        CommandLine parent = commandLine.getParent();
        return parent == null ? commandLine.getCommandName()
                : parent.getCommandName() + " " + commandLine.getCommandName();
    }
}
