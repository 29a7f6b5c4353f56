package io.lockstep.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lockstep.emulator.SrHttp.Resp;
import io.lockstep.emulator.cli.EmulatorMain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The standalone CLI: options, DDL file, users, direct mode. */
class EmulatorMainTest {

    @Test
    void runsWithDdlFileUsersAndDirectMode(@TempDir Path dir) throws Exception {
        Path ddl = dir.resolve("schema.sql");
        Files.writeString(ddl, TestSchema.DDL);
        EmulatorMain main = new EmulatorMain();
        CommandLine cli = new CommandLine(main);
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> exit = thread.submit(() -> cli.execute("--fe-port", "0", "--be-port", "0", "--ddl",
                    ddl.toString(), "--user", "etl:pw", "--direct", "--storage", "none"));
            await().atMost(Duration.ofSeconds(20)).until(() -> main.emulator() != null);
            StarRocksEmulator sr = main.emulator();
            try (SrHttp http = new SrHttp(sr.feUrl()).as("etl", "pw")) {
                Resp begin = http.txn("begin", TestSchema.orders("cli-1"));
                assertThat(begin.hops()).as("direct mode").containsExactly(200);
                assertThat(begin.srStatus()).isEqualTo("OK");
                http.txn("load", TestSchema.ordersJson("cli-1"), TestSchema.orderRows(1, 4));
                assertThat(http.txn("commit", TestSchema.orders("cli-1")).srStatus()).isEqualTo("OK");
                assertThat(sr.rowCount("shop", "orders")).as("none store counts rows").isEqualTo(4);
                assertThat(http.as("root", "").txn("begin", TestSchema.orders("cli-2")).status())
                        .as("--user replaces the default root").isEqualTo(401);
            }
            main.stop();
            assertThat(exit.get(10, TimeUnit.SECONDS)).isZero();
        } finally {
            main.stop();
            thread.shutdownNow();
        }
    }

    @Test
    void rejectsAMalformedUser() {
        CommandLine cli = new CommandLine(new EmulatorMain());
        cli.setErr(new java.io.PrintWriter(new java.io.StringWriter()));
        int code = cli.execute("--fe-port", "0", "--be-port", "0", "--user", "nocolon");
        assertThat(code).isNotZero();
    }

    @Test
    void helpNamesTheOptions() {
        java.io.StringWriter out = new java.io.StringWriter();
        CommandLine cli = new CommandLine(new EmulatorMain());
        cli.setOut(new java.io.PrintWriter(out));
        assertThat(cli.execute("--help")).isZero();
        assertThat(out.toString()).contains("--fe-port", "--be-port", "--ddl", "--user", "--direct", "--storage");
    }
}
