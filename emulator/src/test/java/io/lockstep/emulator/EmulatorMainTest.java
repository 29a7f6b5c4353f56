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
            Future<Integer> exit = thread.submit(() -> cli.execute("--fe-port", "0", "--be-port", "0", "--query-port",
                    "0", "--ddl", ddl.toString(), "--user", "etl:pw", "--direct", "--storage", "none"));
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
            java.util.Properties account = new java.util.Properties();
            account.setProperty("user", "etl");
            account.setProperty("password", "pw");
            try (java.sql.Connection c = java.sql.DriverManager.getConnection(sr.jdbcUrl(), account);
                 java.sql.ResultSet rs = c.createStatement().executeQuery("SHOW TABLES FROM shop")) {
                assertThat(rs.next()).as("the query port serves the --user accounts").isTrue();
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

    /** Runs the CLI to completion; returns exit code and stderr. */
    private static String[] runFailing(String... args) {
        java.io.StringWriter err = new java.io.StringWriter();
        CommandLine cli = new CommandLine(new EmulatorMain());
        cli.setErr(new java.io.PrintWriter(err, true));
        int code = cli.execute(args);
        return new String[] {String.valueOf(code), err.toString()};
    }

    private static void assertOneLineError(String[] result, String... fragments) {
        assertThat(result[0]).as("exit code").isEqualTo("2");
        assertThat(result[1]).startsWith("lockstep-emulator: ").contains(fragments)
                .doesNotContain("\tat ", "Exception in thread");
        assertThat(result[1].strip().lines().count()).as("one line: " + result[1]).isEqualTo(1);
    }

    @Test
    void startupErrorsPrintOneLineNamingTheFileAndExitWith2(@TempDir Path dir) throws Exception {
        Path good = dir.resolve("good.sql");
        Files.writeString(good, TestSchema.DDL);
        Path bad = dir.resolve("bad.sql");
        Files.writeString(bad, "CREATE TABLE shop.extra (id BIGINT, v VARCHR(10)) PRIMARY KEY (id) "
                + "DISTRIBUTED BY HASH(id);");
        assertOneLineError(runFailing("--fe-port", "0", "--be-port", "0", "--ddl", good.toString(), "--ddl",
                bad.toString()), bad.toString(), "VARCHR");
        assertOneLineError(runFailing("--fe-port", "0", "--be-port", "0", "--ddl", dir.resolve("missing.sql")
                .toString()), "missing.sql", "file not found");
        assertOneLineError(runFailing("--fe-port", "0", "--be-port", "0", "--ddl", dir.toString()),
                dir.toString(), "is a directory");
    }

    @Test
    void aDdlThatDeclaresAStoredTableDifferentlyPrintsOneLineAndExitsWith2(@TempDir Path dir) throws Exception {
        String storage = "h2:file:" + dir.resolve("data");
        try (StarRocksEmulator first = StarRocksEmulator.builder().storage(storage).ddl(TestSchema.DDL).build()
                .start()) {
            first.executeDdl("ALTER TABLE shop.orders ADD COLUMN note STRING");
        }
        Path changed = dir.resolve("changed.sql");
        Files.writeString(changed, TestSchema.DDL.replace("status VARCHAR(32)", "status VARCHAR(64)"));
        assertOneLineError(runFailing("--fe-port", "0", "--be-port", "0", "--query-port", "0", "--storage", storage,
                "--ddl", changed.toString()), changed.toString(), "table shop.orders differs from the one stored",
                "column 2: `status` VARCHAR(32) NULL vs `status` VARCHAR(64) NULL");
    }

    @Test
    void aFileWhoseTableDisagreesWithItsKeptCatalogPrintsOneLineAndExitsWith2(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        try (StarRocksEmulator first = StarRocksEmulator.builder().storage("h2:file:" + data).ddl(TestSchema.DDL)
                .build().start()) {
            assertThat(first.catalog().table("shop", "orders")).isPresent();
        }
        // what a stop between the two steps of ALTER TABLE ... DROP COLUMN leaves: the H2 table changed, the kept
        // catalog not
        try (java.sql.Connection c = new org.h2.Driver().connect("jdbc:h2:file:" + data.toAbsolutePath()
                + ";DATABASE_TO_LOWER=TRUE", props("SA", ""));
             java.sql.Statement s = c.createStatement()) {
            s.execute("ALTER TABLE \"shop\".\"orders\" DROP COLUMN \"total\"");
        }
        assertOneLineError(runFailing("--fe-port", "0", "--be-port", "0", "--query-port", "0", "--storage",
                "h2:file:" + data), "--storage h2:file:", "table shop.orders has columns [order_id, status] in the"
                + " file but [order_id, status, total] in the kept catalog");
    }

    private static java.util.Properties props(String user, String password) {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        return p;
    }

    @Test
    void badOptionValuesPrintOneLineNamingTheOptionAndExitWith2() {
        assertOneLineError(runFailing("--fe-port", "70000", "--be-port", "0"), "--fe-port", "70000");
        assertOneLineError(runFailing("--fe-port", "18555", "--be-port", "18555"),
                "--fe-port and --be-port must differ");
        assertOneLineError(runFailing("--fe-port", "18555", "--be-port", "0", "--query-port", "18555"),
                "--query-port must differ");
        assertOneLineError(runFailing("--fe-port", "0", "--be-port", "0", "--storage", "mysql"),
                "--storage", "mysql");
        assertOneLineError(runFailing("--fe-port", "0", "--be-port", "0", "--host", "10.255.255.1"),
                "10.255.255.1");
    }

    @Test
    void aPortInUsePrintsOneLineAndExitsWith2() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getLoopbackAddress())) {
            String port = String.valueOf(taken.getLocalPort());
            assertOneLineError(runFailing("--fe-port", port, "--be-port", "0"), port, "cannot start");
            assertOneLineError(runFailing("--fe-port", "0", "--be-port", "0", "--query-port", port), port,
                    "cannot start the query port");
        }
    }

    @Test
    void dialectDorisServesDorisStreamLoad(@TempDir Path dir) throws Exception {
        Path ddl = dir.resolve("doris.sql");
        Files.writeString(ddl, DorisSchema.DDL);
        EmulatorMain main = new EmulatorMain();
        CommandLine cli = new CommandLine(main);
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> exit = thread.submit(() -> cli.execute("--dialect", "doris", "--fe-port", "0",
                    "--be-port", "0", "--query-port", "0", "--ddl", ddl.toString(), "--user", "etl:pw"));
            await().atMost(Duration.ofSeconds(20)).until(() -> main.dorisEmulator() != null);
            DorisEmulator doris = main.dorisEmulator();
            assertThat(main.emulator()).isNull();
            try (DorisHttp http = new DorisHttp(doris.feUrl()).as("etl", "pw")) {
                DorisHttp.Resp load = http.load("shop", "events", DorisSchema.twoPc("cli-d1"),
                        DorisSchema.eventRows(1, 3));
                assertThat(load.hops()).containsExactly(307, 200);
                assertThat(load.loadStatus()).isEqualTo("Success");
                assertThat(http.twoPc("shop", DorisSchema.h("txn_operation", "commit", "label", "cli-d1"))
                        .field("status")).isEqualTo("Success");
                assertThat(doris.rowCount("shop", "events")).isEqualTo(3);
            }
            main.stop();
            assertThat(exit.get(10, TimeUnit.SECONDS)).isZero();
        } finally {
            main.stop();
            thread.shutdownNow();
        }
    }

    @Test
    void badDialectOptionsPrintOneLine() {
        assertOneLineError(runFailing("--dialect", "mysql", "--fe-port", "0", "--be-port", "0"), "--dialect",
                "mysql");
        assertOneLineError(runFailing("--target", "doris", "--direct", "--fe-port", "0", "--be-port", "0"),
                "--direct is not available with --dialect doris");
    }
}
