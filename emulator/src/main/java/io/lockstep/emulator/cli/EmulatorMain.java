package io.lockstep.emulator.cli;

import io.lockstep.emulator.DorisEmulator;
import io.lockstep.emulator.EmulatorOptions;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.catalog.DdlException;
import io.lockstep.emulator.storage.StoreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Standalone entry point:
 * {@code java -jar emulator.jar [--dialect starrocks|doris] --fe-port 8030 --be-port 8040 --query-port 9030
 * --ddl schema.sql
 * --user root: [--direct] [--storage h2|h2:file:PATH|none]}. Prints the URLs it listens on and serves until killed.
 * {@code --dialect doris} (alias {@code --target doris}) serves Doris' Stream Load protocol ({@link DorisEmulator}).
 *
 * <p>A startup error (bad option value, unreadable or invalid DDL file, port in use, address not bindable)
 * prints one line {@code lockstep-emulator: <what and where>} ({@code lockstep emulator: ...} as a subcommand of
 * {@code lockstep}) on stderr and exits with 2, like picocli's own
 * usage errors; no stack trace.
 */
@Command(name = "lockstep-emulator", mixinStandardHelpOptions = true,
        description = "StarRocks- or Doris-compatible stream load / transaction stream load server (FE + BE "
                + "listeners, MySQL-protocol query port).")
public final class EmulatorMain implements Callable<Integer> {

    @Option(names = "--host", description = "Interface to bind (default: ${DEFAULT-VALUE}).")
    String host = "127.0.0.1";

    @Option(names = "--advertised-host", description = "Host named in printed URLs and 307 redirects "
            + "(default: --host, or 127.0.0.1 when --host is 0.0.0.0 or ::).")
    String advertisedHost;

    @Option(names = "--fe-port", description = "FE HTTP port; 0 = random (default: ${DEFAULT-VALUE}).")
    int fePort = 8030;

    @Option(names = "--be-port", description = "BE HTTP port; 0 = random (default: ${DEFAULT-VALUE}).")
    int bePort = 8040;

    @Option(names = "--query-port", description = "MySQL-protocol query port (SQL over the loaded data, DDL, "
            + "select current_version()); 0 = random (default: ${DEFAULT-VALUE}).")
    int queryPort = 9030;

    @Option(names = "--ddl", description = "DDL file(s) run at start (CREATE DATABASE / CREATE TABLE).")
    List<Path> ddlFiles = new ArrayList<>();

    @Option(names = "--user", description = "user:password (repeatable; default root with empty password).")
    List<String> users = new ArrayList<>();

    @Option(names = "--direct", description = "Execute loads on the FE port instead of redirecting (307) to the BE.")
    boolean direct;

    @Option(names = "--storage", description = "h2 (in memory, queryable), h2:file:PATH (the same in an H2 file: "
            + "committed rows and every database and table created since survive a restart) or none (count only) "
            + "(default: ${DEFAULT-VALUE}).")
    String storage = "h2";

    @Option(names = {"--dialect", "--target"}, description = "starrocks or doris: the protocol served "
            + "(default: ${DEFAULT-VALUE}).")
    String dialect = "starrocks";

    @Spec
    CommandSpec spec;

    /** Set by {@link #call()} so tests can stop a running CLI (one of the two, per dialect); null otherwise. */
    private volatile StarRocksEmulator running;
    private volatile DorisEmulator runningDoris;
    private final CountDownLatch stopped = new CountDownLatch(1);

    public static void main(String[] args) {
        System.exit(new CommandLine(new EmulatorMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        String feUrl;
        String beUrl;
        String jdbcUrl;
        try {
            checkOptions();
            if (isDoris()) {
                DorisEmulator doris = common(DorisEmulator.builder()).build().start();
                runningDoris = doris;
                feUrl = doris.feUrl();
                beUrl = doris.beUrl();
                jdbcUrl = doris.jdbcUrl();
            } else {
                StarRocksEmulator.Builder b = common(StarRocksEmulator.builder());
                if (direct) {
                    b.direct();
                }
                StarRocksEmulator emulator = b.build().start();
                running = emulator;
                feUrl = emulator.feUrl();
                beUrl = emulator.beUrl();
                jdbcUrl = emulator.jdbcUrl();
            }
        } catch (StartupException | DdlException | IllegalArgumentException | IllegalStateException e) {
            spec.commandLine().getErr().println(spec.qualifiedName() + ": " + e.getMessage());
            spec.commandLine().getErr().flush();
            return CommandLine.ExitCode.USAGE;
        } catch (StoreException e) {
            spec.commandLine().getErr().println(spec.qualifiedName() + ": --storage " + storage + ": "
                    + e.getMessage());
            spec.commandLine().getErr().flush();
            return CommandLine.ExitCode.USAGE;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "lockstep-emulator-shutdown"));
        System.out.println("FE (" + (isDoris() ? "fenodes" : "load-url") + "): " + feUrl);
        System.out.println("BE:            " + beUrl);
        System.out.println("query (MySQL): " + jdbcUrl);
        System.out.println("dialect:       " + (isDoris() ? "doris" : "starrocks") + ", mode: "
                + (direct ? "direct" : "redirect (307 FE -> BE)") + ", storage: " + storage);
        System.out.flush();
        stopped.await();
        return 0;
    }

    private boolean isDoris() {
        return "doris".equals(dialect.trim().toLowerCase(Locale.ROOT));
    }

    /** Checks the options that need no builder. */
    private void checkOptions() throws StartupException {
        String d = dialect.trim().toLowerCase(Locale.ROOT);
        if (!d.equals("starrocks") && !d.equals("doris")) {
            throw new StartupException("--dialect must be starrocks or doris, got: " + dialect);
        }
        if (d.equals("doris") && direct) {
            throw new StartupException("--direct is not available with --dialect doris: Doris clients follow the FE's"
                    + " 307 or talk to the BE port (printed below) directly");
        }
        checkPort("--fe-port", fePort);
        checkPort("--be-port", bePort);
        checkPort("--query-port", queryPort);
        if (fePort != 0 && fePort == bePort) {
            throw new StartupException("--fe-port and --be-port must differ, both are " + fePort);
        }
        if (queryPort != 0 && (queryPort == fePort || queryPort == bePort)) {
            throw new StartupException("--query-port must differ from --fe-port and --be-port, got " + queryPort);
        }
        if (!"h2".equals(storage) && !"none".equals(storage) && !storage.matches("h2:file:.+")) {
            throw new StartupException("--storage must be h2, h2:file:PATH or none, got: " + storage);
        }
    }

    /** Applies the options both dialects share. */
    private <B extends EmulatorOptions<B>> B common(B b) throws StartupException {
        b.host(host).advertisedHost(advertisedHost).fePort(fePort).bePort(bePort).queryPort(queryPort)
                .storage(storage);
        for (String u : users) {
            int colon = u.indexOf(':');
            if (colon <= 0) {
                throw new CommandLine.ParameterException(new CommandLine(this),
                        "--user must be user:password (password may be empty), got: " + u);
            }
            b.user(u.substring(0, colon), u.substring(colon + 1));
        }
        for (Path f : ddlFiles) {
            if (Files.isDirectory(f)) {
                throw new StartupException("--ddl " + f + ": is a directory, expected a DDL file");
            }
            try {
                b.ddlFile(f);
            } catch (NoSuchFileException e) {
                throw new StartupException("--ddl " + f + ": file not found");
            } catch (IOException e) {
                throw new StartupException("--ddl " + f + ": cannot read: " + e);
            }
        }
        return b;
    }

    private static void checkPort(String option, int port) throws StartupException {
        if (port < 0 || port > 65535) {
            throw new StartupException(option + " must be 0-65535 (0 = random), got " + port);
        }
    }

    /** A startup problem whose message names the option or file and what was wrong. */
    private static final class StartupException extends Exception {
        StartupException(String message) {
            super(message);
        }
    }

    /** The StarRocks-dialect emulator started by {@link #call()} while it runs; null before, after and for Doris. */
    public StarRocksEmulator emulator() {
        return running;
    }

    /** The Doris-dialect emulator started by {@link #call()} while it runs; null before, after and for StarRocks. */
    public DorisEmulator dorisEmulator() {
        return runningDoris;
    }

    /** Stops a running emulator started by {@link #call()}. */
    public void stop() {
        StarRocksEmulator e = running;
        if (e != null) {
            running = null;
            e.close();
        }
        DorisEmulator d = runningDoris;
        if (d != null) {
            runningDoris = null;
            d.close();
        }
        stopped.countDown();
    }
}
