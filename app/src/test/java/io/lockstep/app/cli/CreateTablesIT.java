package io.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.kafka.EmbeddedKafkaExtension;
import io.lockstep.app.testing.DebeziumMessages;
import io.lockstep.app.testing.StarRocksEmulatorExtension;
import io.lockstep.app.testing.TopicWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lockstep run --create-tables} on a JSON-lines file of Debezium messages into an EMPTY emulator (no database):
 * the run creates the database and the progress table before the start, and each table at its first row from the
 * message's Kafka Connect schema, ahead of that row's transaction (docs/table-creation.md). A table whose messages carry
 * no schema, without --source-jdbc-url, stops the run in one line after what came before; a table left out by
 * --exclude-tables is neither created nor loaded; a second run over the same file finds everything there; two
 * subtasks that meet the same missing table on two Kafka partitions both load into the one table created, and so
 * does a table met in Debezium's default layout (one topic per table and the transaction topic).
 */
class CreateTablesIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @TempDir
    Path workDir;
    @RegisterExtension
    final StarRocksEmulatorExtension starRocks = new StarRocksEmulatorExtension();

    @Test
    void anEmptyTargetGetsTheDatabaseTheProgressTableAndEachTableAheadOfItsFirstTransaction() throws Exception {
        starRocks.start(b -> b);
        Path input = input(transaction("t1", "accounts", account(1, "ann")),
                transaction("t2", "orders", order(10, 1, "2026-12-01")),
                transaction("t3", "accounts", account(2, "bob")));

        CliRun run = CliRun.of(args(input, "--table-prefix", "s_"));

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("lockstep run: database 'bank' ready; progress table bank.lockstep_progress "
                + "created; each table is created at its first row");
        assertThat(run.out()).contains("creating a missing table at its first row (types from the event's schema; "
                + "without --source-jdbc-url a table that receives no event is not created)");
        assertThat(starRocks.rows("SELECT id, owner FROM bank.s_accounts ORDER BY id")).containsExactly("1|ann",
                "2|bob");
        assertThat(starRocks.rows("SELECT id, account_id, placed FROM bank.s_orders")).containsExactly(
                "10|1|2026-12-01");
        assertThat(columns("bank", "s_orders")).containsExactly(entry("id", "bigint(20)", false),
                entry("account_id", "bigint(20)", true), entry("placed", "date", true));
        assertThat(columns("bank", "s_accounts")).containsEntry("owner", "varchar(128)|true"); // 32 chars x 4 bytes

        CliRun again = CliRun.of(args(input, "--table-prefix", "s_"));

        assertThat(again.err()).isEmpty();
        assertThat(again.exitCode()).isZero();
        assertThat(again.out()).contains("progress table bank.lockstep_progress already there");
        assertThat(starRocks.rows("SELECT id, owner FROM bank.s_accounts ORDER BY id")).containsExactly("1|ann",
                "2|bob");
        assertThat(starRocks.rows("SELECT id FROM bank.s_orders")).containsExactly("10");
    }

    @Test
    void twoSubtasksMeetingTheSameMissingTableOnTwoPartitionsBothLoadIntoTheOneTableCreated() throws Exception {
        starRocks.start(b -> b);
        KAFKA.createTopic("create.two", 2);
        try (TopicWriter writer = new TopicWriter(KAFKA.bootstrapServers(), "create.two")) {
            List<String> first = new ArrayList<>(transaction("p0t1", "orders", order(10, 1, "2026-12-01")));
            first.addAll(transaction("p0t2", "orders", order(11, 1, "2026-12-02")));
            writer.sendAllAsync(0, first);
            List<String> second = new ArrayList<>(transaction("p1t1", "orders", order(20, 2, "2026-12-03")));
            second.addAll(transaction("p1t2", "accounts", account(2, "bob")));
            writer.sendAllAsync(1, second);
        }

        CliRun run = CliRun.of("run", "--kafka-bootstrap", KAFKA.bootstrapServers(), "--topic", "create.two",
                "--format", "debezium", "--load-url", starRocks.feUrl(), "--jdbc-url", starRocks.jdbcUrl(),
                "--database", "bank", "--create-tables", "--key-columns", "src.accounts=id", "--key-columns",
                "src.orders=id", "--bounded", "--parallelism", "2", "--commit-interval", "300ms",
                "--restart-attempts", "0", "--group-id", "it-create-two");

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(starRocks.rows("SELECT id, placed FROM bank.orders ORDER BY id")).containsExactly(
                "10|2026-12-01", "11|2026-12-02", "20|2026-12-03");
        assertThat(starRocks.rows("SELECT id FROM bank.accounts")).containsExactly("2");
    }

    @Test
    void debeziumsDefaultLayoutCreatesATableAtItsFirstRowRebuiltFromTheTableTopics() throws Exception {
        starRocks.start(b -> b);
        KAFKA.createTopic("lay.src.orders", 1);
        KAFKA.createTopic("lay.transaction", 1);
        try (TopicWriter orders = new TopicWriter(KAFKA.bootstrapServers(), "lay.src.orders");
                TopicWriter transactions = new TopicWriter(KAFKA.bootstrapServers(), "lay.transaction")) {
            for (String id : List.of("lt1", "lt2")) {
                List<String> messages = transaction(id, "orders", order(id.equals("lt1") ? 10 : 11, 1, "2026-12-01"));
                transactions.send(messages.get(0));
                orders.send(messages.get(1));
                transactions.send(messages.get(2));
            }
        }

        CliRun run = CliRun.of("run", "--kafka-bootstrap", KAFKA.bootstrapServers(), "--topic", "lay.src.orders",
                "--transaction-topic", "lay.transaction", "--format", "debezium", "--load-url", starRocks.feUrl(),
                "--jdbc-url", starRocks.jdbcUrl(), "--database", "bank", "--create-tables", "--key-columns",
                "src.orders=id", "--bounded", "--commit-interval", "300ms", "--restart-attempts", "0",
                "--group-id", "it-layout");

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(starRocks.rows("SELECT id, placed FROM bank.orders ORDER BY id")).containsExactly(
                "10|2026-12-01", "11|2026-12-01");
    }

    @Test
    void aTableWhoseMessagesCarryNoSchemaStopsTheRunInOneLineAfterWhatCameBefore() throws Exception {
        starRocks.start(b -> b);
        List<String> schemaless = new ArrayList<>(List.of(DebeziumMessages.beginJson("t2"),
                DebeziumMessages.dataJson("src", "orders", "c", "null",
                        "{\"id\":10,\"account_id\":1,\"placed\":20423}", "t2", 1),
                DebeziumMessages.endJson("t2", 1, Map.of("src.orders", 1L))));
        Path input = input(transaction("t1", "accounts", account(1, "ann")), schemaless);

        CliRun run = CliRun.of(args(input));

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("lockstep run: job failed: ").contains("target table bank.orders of source "
                + "table src.orders does not exist and --create-tables cannot create it: its messages carry no schema")
                .contains("give --source-jdbc-url");
        assertThat(run.err().strip().lines()).as("one line").hasSize(1);
        assertThat(starRocks.rows("SELECT id FROM bank.accounts")).containsExactly("1");
    }

    @Test
    void anExcludedTableIsNeitherCreatedNorLoaded() throws Exception {
        starRocks.start(b -> b);
        Path input = input(transaction("t1", "accounts", account(1, "ann")),
                transaction("t2", "orders", order(10, 1, "2026-12-01")));

        CliRun run = CliRun.of(args(input, "--exclude-tables", "src\\.ord.*"));

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(starRocks.rows("SELECT id FROM bank.accounts")).containsExactly("1");
        assertThat(tables("bank")).containsExactly("accounts", "lockstep_progress");
    }

    @Test
    void combinationsThatCannotWorkAreUsageErrorsInOneLine() throws Exception {
        Path input = input(transaction("t1", "accounts", account(1, "ann")));
        String[] base = {"run", "--input", input.toString(), "--format", "debezium", "--load-url", "127.0.0.1:1",
            "--database", "bank"};

        assertUsage(base, List.of("--create-tables"), "--create-tables needs --jdbc-url");
        assertUsage(base, List.of("--create-tables", "--jdbc-url", "jdbc:mysql://127.0.0.1:1", "--target", "doris"),
                "--create-tables creates StarRocks tables only");
        assertUsage(base, List.of("--create-tables", "--jdbc-url", "jdbc:mysql://127.0.0.1:1", "--table-map",
                "src.accounts=bank.accounts"), "cannot follow --table-map");
        assertUsage(base, List.of("--include-tables", "src\\..*"), "--include-tables applies to --create-tables only");
        assertUsage(base, List.of("--create-tables", "--jdbc-url", "jdbc:mysql://127.0.0.1:1", "--include-tables",
                "src\\.(orders"), "--include-tables");
        assertUsage(base, List.of("--create-tables", "--jdbc-url", "jdbc:mysql://127.0.0.1:1", "--source-jdbc-url",
                "jdbc:postgresql://127.0.0.1:1/db"), "--source-jdbc-url needs --source-user");
    }

    private static void assertUsage(String[] base, List<String> more, String expected) {
        List<String> args = new ArrayList<>(List.of(base));
        args.addAll(more);
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertThat(run.exitCode()).as(String.join(" ", more)).isEqualTo(2);
        assertThat(run.err()).as(String.join(" ", more)).contains(expected);
    }

    private String[] args(Path input, String... more) {
        List<String> args = new ArrayList<>(List.of("run", "--input", input.toString(), "--format", "debezium",
                "--load-url", starRocks.feUrl(), "--jdbc-url", starRocks.jdbcUrl(), "--database", "bank",
                "--create-tables", "--table-property", "replication_num=1", "--key-columns", "src.accounts=id",
                "--key-columns", "src.orders=id", "--commit-interval", "300ms"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    @SafeVarargs
    private Path input(List<String>... transactions) throws Exception {
        List<String> lines = new ArrayList<>();
        for (List<String> transaction : transactions) {
            lines.addAll(transaction);
        }
        return Files.write(workDir.resolve("input.jsonl"), lines);
    }

    /** @return BEGIN, one insert into {@code src.table} with its Connect schema, END */
    private static List<String> transaction(String id, String table, String[] row) {
        String payload = DebeziumMessages.dataJson("src", table, "c", "null", row[1], id, 1);
        return List.of(DebeziumMessages.beginJson(id),
                "{\"schema\":" + envelopeSchema(table, row[0]) + ",\"payload\":" + payload + "}",
                DebeziumMessages.endJson(id, 1, Map.of("src." + table, 1L)));
    }

    /** @return the row struct's fields and the after image of an account */
    private static String[] account(long id, String owner) {
        return new String[] {"{\"type\":\"int64\",\"optional\":false,\"field\":\"id\"},"
                + "{\"type\":\"string\",\"optional\":true,\"field\":\"owner\",\"parameters\":{"
                + "\"__debezium.source.column.type\":\"VARCHAR\",\"__debezium.source.column.length\":\"32\"}}",
            "{\"id\":" + id + ",\"owner\":\"" + owner + "\"}"};
    }

    /** @return the row struct's fields and the after image of an order placed on {@code date} */
    private static String[] order(long id, long accountId, String date) {
        long days = java.time.LocalDate.parse(date).toEpochDay();
        return new String[] {"{\"type\":\"int64\",\"optional\":false,\"field\":\"id\"},"
                + "{\"type\":\"int64\",\"optional\":true,\"field\":\"account_id\"},"
                + "{\"type\":\"int32\",\"optional\":true,\"name\":\"io.debezium.time.Date\",\"version\":1,"
                + "\"field\":\"placed\"}",
            "{\"id\":" + id + ",\"account_id\":" + accountId + ",\"placed\":" + days + "}"};
    }

    /** @return the JSON converter's envelope schema of a Debezium MySQL event of {@code src.table} */
    private static String envelopeSchema(String table, String rowFields) {
        String row = "{\"type\":\"struct\",\"fields\":[" + rowFields + "],\"optional\":true,\"name\":\"oltp.src."
                + table + ".Value\",\"field\":\"%s\"}";
        return "{\"type\":\"struct\",\"fields\":[" + row.formatted("before") + "," + row.formatted("after") + ","
                + "{\"type\":\"struct\",\"fields\":[],\"optional\":false,\"name\":\"io.debezium.connector.mysql.Source\","
                + "\"field\":\"source\"},{\"type\":\"string\",\"optional\":false,\"field\":\"op\"}],"
                + "\"optional\":false,\"name\":\"oltp.src." + table + ".Envelope\",\"version\":2}";
    }

    private static Map.Entry<String, String> entry(String column, String type, boolean nullable) {
        return Map.entry(column, type + "|" + nullable);
    }

    /** @return {@code SHOW TABLES FROM database} */
    private List<String> tables(String database) throws Exception {
        List<String> tables = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(starRocks.jdbcUrl(), "root", "");
                ResultSet rows = connection.createStatement().executeQuery("SHOW TABLES FROM " + database)) {
            while (rows.next()) {
                tables.add(rows.getString(1));
            }
        }
        return tables;
    }

    /** @return {@code DESC db.table} as column to {@code type|nullable}, in table order, types in lower case */
    private Map<String, String> columns(String database, String table) throws Exception {
        Map<String, String> columns = new LinkedHashMap<>();
        try (Connection connection = DriverManager.getConnection(starRocks.jdbcUrl(), "root", "");
                ResultSet rows = connection.createStatement().executeQuery("DESC " + database + "." + table)) {
            while (rows.next()) {
                columns.put(rows.getString(1), rows.getString(2).toLowerCase(java.util.Locale.ROOT) + "|"
                        + "YES".equalsIgnoreCase(rows.getString(3)));
            }
        }
        return columns;
    }
}
