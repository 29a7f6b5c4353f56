package io.lockstep.emulator.cli;

import io.lockstep.emulator.StarRocksEmulator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Standalone entry point:
 * {@code java -jar emulator.jar --fe-port 8030 --be-port 8040 --ddl schema.sql --user root: [--direct]
 * [--storage h2|none]}. Prints the URLs it listens on and serves until killed.
 */
@Command(name = "lockstep-emulator", mixinStandardHelpOptions = true,
        description = "StarRocks-compatible stream load / transaction stream load server (FE + BE listeners).")
public final class EmulatorMain implements Callable<Integer> {

    @Option(names = "--host", description = "Interface to bind and name in redirects (default: ${DEFAULT-VALUE}).")
    String host = "127.0.0.1";

    @Option(names = "--fe-port", description = "FE HTTP port; 0 = random (default: ${DEFAULT-VALUE}).")
    int fePort = 8030;

    @Option(names = "--be-port", description = "BE HTTP port; 0 = random (default: ${DEFAULT-VALUE}).")
    int bePort = 8040;

    @Option(names = "--ddl", description = "DDL file(s) run at start (CREATE DATABASE / CREATE TABLE).")
    List<Path> ddlFiles = new ArrayList<>();

    @Option(names = "--user", description = "user:password (repeatable; default root with empty password).")
    List<String> users = new ArrayList<>();

    @Option(names = "--direct", description = "Execute loads on the FE port instead of redirecting (307) to the BE.")
    boolean direct;

    @Option(names = "--storage", description = "h2 (queryable) or none (count only) (default: ${DEFAULT-VALUE}).")
    String storage = "h2";

    /** Set by {@link #call()} so tests can stop a running CLI; null otherwise. */
    private volatile StarRocksEmulator running;
    private final CountDownLatch stopped = new CountDownLatch(1);

    public static void main(String[] args) {
        System.exit(new CommandLine(new EmulatorMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        StarRocksEmulator.Builder b = StarRocksEmulator.builder().host(host).fePort(fePort).bePort(bePort)
                .storage(storage);
        if (direct) {
            b.direct();
        }
        for (String u : users) {
            int colon = u.indexOf(':');
            if (colon <= 0) {
                throw new CommandLine.ParameterException(new CommandLine(this),
                        "--user must be user:password (password may be empty), got: " + u);
            }
            b.user(u.substring(0, colon), u.substring(colon + 1));
        }
        for (Path f : ddlFiles) {
            b.ddlFile(f);
        }
        StarRocksEmulator emulator = b.build().start();
        running = emulator;
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "lockstep-emulator-shutdown"));
        System.out.println("FE (load-url): " + emulator.feUrl());
        System.out.println("BE:            " + emulator.beUrl());
        System.out.println("mode:          " + (direct ? "direct" : "redirect (307 FE -> BE)")
                + ", storage: " + storage);
        System.out.flush();
        stopped.await();
        return 0;
    }

    /** The emulator started by {@link #call()} while it runs; null before and after. */
    public StarRocksEmulator emulator() {
        return running;
    }

    /** Stops a running emulator started by {@link #call()}. */
    public void stop() {
        StarRocksEmulator e = running;
        if (e != null) {
            running = null;
            e.close();
        }
        stopped.countDown();
    }
}
