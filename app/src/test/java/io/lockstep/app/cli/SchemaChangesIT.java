package io.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.schema.SchemaApplier;
import io.lockstep.app.testing.DebeziumTxn;
import io.lockstep.app.testing.StarRocksEmulatorExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lockstep run --schema-changes fail|ignore|apply} on a JSON-lines file of Debezium messages, into the
 * emulator in the default exactly-once mode: an ADD COLUMN upstream (a DDL event) and a row column the target lacks
 * either stop the run after the transactions before them, in one line, or are left out, or are applied to the target
 * through its MySQL-protocol port before the rows that carry them.
 */
class SchemaChangesIT {
    private static final String BANK_DDL = StarRocksEmulatorExtension.BANK_DDL
            + StarRocksEmulatorExtension.progressTableDdl("bank");
    /** Debezium's schema change event of {@code ALTER TABLE accounts ADD COLUMN email VARCHAR(128)}. */
    private static final String ADD_EMAIL = "{\"source\":{\"server\":\"oltp\",\"db\":\"src\"},\"databaseName\":\"src\","
            + "\"ddl\":\"ALTER TABLE accounts ADD COLUMN email VARCHAR(128)\",\"tableChanges\":[{\"type\":\"ALTER\","
            + "\"id\":\"\\\"src\\\".\\\"accounts\\\"\",\"table\":{\"primaryKeyColumnNames\":[\"id\"],\"columns\":["
            + "{\"name\":\"id\",\"typeName\":\"BIGINT\",\"position\":1,\"optional\":false},"
            + "{\"name\":\"owner\",\"typeName\":\"VARCHAR\",\"length\":64,\"position\":2,\"optional\":true},"
            + "{\"name\":\"balance\",\"typeName\":\"DECIMAL\",\"length\":12,\"scale\":2,\"position\":3,\"optional\":true},"
            + "{\"name\":\"email\",\"typeName\":\"VARCHAR\",\"length\":128,\"position\":4,\"optional\":true}]}}]}";

    @TempDir
    Path workDir;
    @RegisterExtension
    final StarRocksEmulatorExtension starRocks = new StarRocksEmulatorExtension();

    @Test
    void anAddColumnUpstreamWithFailStopsAfterTheTransactionsBeforeItInOneLine() throws Exception {
        starRocks.start(BANK_DDL);
        Path input = input(account("t1", 1, ""), List.of(ADD_EMAIL), account("t2", 2, ",\"email\":\"o2@example.com\""));

        CliRun run = CliRun.of(args(input));

        assertThat(run.exitCode()).isEqualTo(1);
        assertOneLine(run.err(), "topic 'file:input.jsonl' partition 0 offset 4: schema change of table "
                + "'src.accounts': ALTER TABLE accounts ADD COLUMN email VARCHAR(128); the transactions before it are "
                + "committed");
        assertThat(run.err()).contains("--schema-changes apply").contains("--schema-changes ignore");
        assertThat(starRocks.rows("SELECT id FROM bank.accounts ORDER BY id")).containsExactly("1");
        assertThat(starRocks.runningTransactions("bank")).isZero();
    }

    @Test
    void anAddColumnUpstreamWithApplyEndsWithTheNewColumnsValuesInTheTarget() throws Exception {
        starRocks.start(BANK_DDL);
        Path input = input(account("t1", 1, ""), List.of(ADD_EMAIL), account("t2", 2, ",\"email\":\"o2@example.com\""));

        StringBuilder log = new StringBuilder();
        CliRun run = withLog(log, () -> CliRun.of(args(input, "--schema-changes", "apply", "--jdbc-url",
                starRocks.jdbcUrl())));

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(appliedLines(log)).singleElement().asString().contains("schema change applied to bank.accounts: "
                + "ADD COLUMN email VARCHAR(512) (").contains("ALTER TABLE accounts ADD COLUMN email VARCHAR(128))");
        assertThat(starRocks.rows("SELECT id, email FROM bank.accounts ORDER BY id"))
                .containsExactly("1|null", "2|o2@example.com");
        assertThat(columnType("email")).isEqualToIgnoringCase("VARCHAR(512)"); // 128 characters of up to 4 bytes
    }

    @Test
    void aRowColumnTheTargetLacksWithFailStopsBeforeItsTransactionInOneLine() throws Exception {
        starRocks.start(BANK_DDL);
        Path input = input(account("t1", 1, ""), account("t2", 2, ",\"email\":\"o2@example.com\""));

        CliRun run = CliRun.of(args(input));

        assertThat(run.exitCode()).isEqualTo(1);
        assertOneLine(run.err(), "topic 'file:input.jsonl' partition 0 offset 5: a row of source table src.accounts "
                + "has column 'email' that target table bank.accounts lacks; the transactions before it are committed, "
                + "nothing of its transaction is loaded");
        assertThat(starRocks.rows("SELECT id FROM bank.accounts ORDER BY id")).containsExactly("1");
    }

    @Test
    void aRowColumnTheTargetLacksWithIgnoreLoadsTheRowWithoutIt() throws Exception {
        starRocks.start(BANK_DDL);
        Path input = input(account("t1", 1, ""), account("t2", 2, ",\"email\":\"o2@example.com\""),
                account("t3", 3, ",\"email\":\"o3@example.com\""));

        CliRun run = CliRun.of(args(input, "--schema-changes", "ignore"));

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(starRocks.rows("SELECT id, owner FROM bank.accounts ORDER BY id")).containsExactly("1|o1", "2|o2", "3|o3");
        assertThat(columnType("email")).isNull();
    }

    @Test
    void aRowColumnTheTargetLacksWithApplyIsAddedWithATypeFromItsValue() throws Exception {
        starRocks.start(BANK_DDL);
        Path input = input(account("t1", 1, ""), account("t2", 2, ",\"visits\":7"));

        StringBuilder log = new StringBuilder();
        CliRun run = withLog(log, () -> CliRun.of(args(input, "--schema-changes", "apply", "--jdbc-url",
                starRocks.jdbcUrl())));

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(appliedLines(log)).singleElement().asString()
                .contains("schema change applied to bank.accounts: ADD COLUMN visits BIGINT");
        assertThat(starRocks.rows("SELECT id, visits FROM bank.accounts ORDER BY id")).containsExactly("1|null", "2|7");
        assertThat(columnType("visits")).startsWithIgnoringCase("BIGINT");
    }

    @Test
    void theRunnableJarShowsTheLineOfEachAppliedChange() throws Exception {
        Properties jarLogging = new Properties();
        try (var in = Files.newBufferedReader(Path.of("src", "main", "resources", "simplelogger.properties"))) {
            jarLogging.load(in);
        }
        assertThat(jarLogging.getProperty("org.slf4j.simpleLogger.defaultLogLevel")).isEqualTo("warn");
        assertThat(jarLogging.getProperty("org.slf4j.simpleLogger.log." + SchemaApplier.class.getName()))
                .isEqualTo("info");
    }

    @Test
    void applyWithoutAJdbcUrlIsAUsageError() throws Exception {
        CliRun run = CliRun.of("run", "--input", input(account("t1", 1, "")).toString(), "--format", "debezium", "--load-url", "127.0.0.1:1",
                "--database", "bank", "--schema-changes", "apply");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--schema-changes apply needs --jdbc-url");
    }

    private String[] args(Path input, String... more) {
        List<String> args = new ArrayList<>(List.of("run", "--input", input.toString(), "--format", "debezium",
                "--load-url", starRocks.feUrl(), "--database", "bank", "--commit-interval", "300ms"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    @SafeVarargs
    private Path input(List<String>... parts) throws Exception {
        List<String> lines = new ArrayList<>();
        for (List<String> part : parts) {
            lines.addAll(part);
        }
        return Files.write(workDir.resolve("input.jsonl"), lines);
    }

    private static List<String> account(String txn, int id, String moreColumns) {
        return new DebeziumTxn(txn).insert("accounts",
                "{\"id\":" + id + ",\"owner\":\"o" + id + "\",\"balance\":\"1.00\"" + moreColumns + "}").messages();
    }

    /**
     * Runs {@code run} with {@code System.err}, where slf4j-simple logs, copied into {@code log} (and still written
     * to the real one).
     */
    private static CliRun withLog(StringBuilder log, Callable<CliRun> run) throws Exception {
        PrintStream systemErr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            return run.call();
        } finally {
            System.setErr(systemErr);
            log.append(captured.toString(StandardCharsets.UTF_8));
            systemErr.print(log);
        }
    }

    private static List<String> appliedLines(StringBuilder log) {
        return log.toString().lines().filter(line -> line.contains("schema change applied")).toList();
    }

    private static void assertOneLine(String err, String expected) {
        assertThat(err).startsWith("lockstep run: job failed: ").contains(expected);
        assertThat(err.strip().lines()).as("one line, no stack trace").hasSize(1);
    }

    /** @return the type {@code DESC bank.accounts} gives {@code column}, or null without such a column */
    private String columnType(String column) throws Exception {
        try (var connection = java.sql.DriverManager.getConnection(starRocks.jdbcUrl(), "root", "");
                var rows = connection.createStatement().executeQuery("DESC bank.accounts")) {
            while (rows.next()) {
                if (rows.getString(1).equalsIgnoreCase(column)) {
                    return rows.getString(2);
                }
            }
            return null;
        }
    }
}
