package io.lockstep.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.kafka.EmbeddedKafka;
import io.lockstep.e2e.source.DebeziumConnectors;
import io.lockstep.e2e.source.PostgresServer;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.source.debezium.DebeziumKafkaPublisher;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A whole PostgreSQL database into an EMPTY StarRocks-compatible emulator (no database, no table) with
 * {@code lockstep run --create-tables} (docs/table-creation.md): PostgreSQL → Debezium 3.6.1 (embedded engine,
 * pgoutput, a publication of all tables, transaction metadata, one routed topic) → Kafka → {@code lockstep run} on a
 * MiniCluster → the emulator. One table per mapped source type (and a composite and a text key), each with a snapshot
 * row, a row inserted and one updated while streaming, and a NULL.
 *
 * <p>First with the JSON converter's {@code schemas.enable=true} (and {@code column.propagate.source.type} on some
 * columns): the job creates the database and the progress table before it starts and every table at its first row,
 * from the event's schema; then the same database again into another target database with {@code schemas.enable=false}
 * and {@code --source-jdbc-url}, which creates every included table from the source catalog before the start (the
 * types whose values Debezium sends load-ready without schemas). In both, a table created in the source while the job
 * runs appears in the target with its rows, and every target table equals its source value by value; a table excluded
 * (--exclude-tables) is skipped, one that never had an event is created only from the catalog, and a run whose
 * catalog holds a table that cannot be created exactly (NUMERIC without precision) is refused before anything is
 * created.
 */
class WholeDatabaseSyncIT {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    /** One table per type: its column type, and per row the SQL literal and the value the target must hold. */
    private record Typed(String table, String type, boolean withoutSchemas, List<String[]> values) {
        Typed {
            values = List.copyOf(values);
        }
    }

    private static String[] v(String literal, String target) {
        return new String[] {literal, target};
    }

    private static final List<Typed> TYPES = List.of(
            new Typed("t_int2", "SMALLINT", true, List.of(v("-32768", "-32768"), v("32767", "32767"))),
            new Typed("t_int4", "INTEGER", true, List.of(v("-2147483648", "-2147483648"), v("7", "7"))),
            new Typed("t_int8", "BIGINT", true, List.of(v("-9223372036854775808", "-9223372036854775808"),
                    v("9223372036854775807", "9223372036854775807"))),
            new Typed("t_float4", "REAL", true, List.of(v("1.5", "1.5"), v("-0.25", "-0.25"))),
            new Typed("t_float8", "DOUBLE PRECISION", true, List.of(v("3.141592653589793", "3.141592653589793"),
                    v("-1e+100", "-1.0E100"))),
            new Typed("t_numeric", "NUMERIC(12,2)", false, List.of(v("1234567890.12", "1234567890.12"),
                    v("-0.01", "-0.01"))),
            new Typed("t_numeric38", "NUMERIC(38,10)", false, List.of(
                    v("1234567890123456789012345678.0123456789", "1234567890123456789012345678.0123456789"),
                    v("0.0000000000", "0E-10"))),
            new Typed("t_bool", "BOOLEAN", true, List.of(v("true", "true"), v("false", "false"))),
            new Typed("t_char", "CHAR(5)", true, List.of(v("'ab'", "ab   "), v("'abcde'", "abcde"))),
            new Typed("t_varchar", "VARCHAR(20)", true, List.of(v("'héllo 😀'", "héllo 😀"), v("''", ""))),
            new Typed("t_text", "TEXT", true, List.of(v("'a longer text, with \"quotes\"'",
                    "a longer text, with \"quotes\""), v("'line\nbreak'", "line\nbreak"))),
            new Typed("t_date", "DATE", false, List.of(v("'2026-12-03'", "2026-12-03"), v("'1970-01-01'",
                    "1970-01-01"))),
            new Typed("t_time", "TIME(6)", false, List.of(v("'13:45:10.123456'", "13:45:10.123456"),
                    v("'00:00:00'", "00:00:00"))),
            new Typed("t_timestamp", "TIMESTAMP(6)", false, List.of(v("'2026-12-03 23:59:59.123456'",
                    "2026-12-03T23:59:59.123456"), v("'2000-02-29 00:00:00'", "2000-02-29T00:00"))),
            new Typed("t_timestamp3", "TIMESTAMP(3)", false, List.of(v("'2026-12-03 01:02:03.456'",
                    "2026-12-03T01:02:03.456"), v("'1999-12-31 23:59:59'", "1999-12-31T23:59:59"))),
            new Typed("t_timestamptz", "TIMESTAMPTZ", false, List.of(v("'2026-12-03 10:00:00+02'",
                    "2026-12-03T08:00"), v("'2026-06-01 00:00:00.5+00'", "2026-06-01T00:00:00.500"))),
            new Typed("t_json", "JSON", false, List.of(v("'{\"a\": [1, 2]}'", "{\"a\":[1,2]}"),
                    v("'[]'", "[]"))),
            new Typed("t_jsonb", "JSONB", false, List.of(v("'{\"b\": {\"c\": null}}'", "{\"b\":{\"c\":null}}"),
                    v("'\"text\"'", "\"text\""))),
            new Typed("t_uuid", "UUID", true, List.of(v("'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'",
                    "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), v("'00000000-0000-0000-0000-000000000000'",
                    "00000000-0000-0000-0000-000000000000"))),
            new Typed("t_enum", "mood", true, List.of(v("'happy'", "happy"), v("'sad'", "sad"))),
            new Typed("t_timetz", "TIMETZ", false, List.of(v("'10:00:00+02'", "08:00:00"),
                    v("'23:59:59.5-01'", "00:59:59.500000"))),
            new Typed("t_inet", "INET", true, List.of(v("'192.168.0.1'", "192.168.0.1"), v("'::1'", "::1"))),
            new Typed("t_xml", "XML", true, List.of(v("'<a b=\"1\">x</a>'", "<a b=\"1\">x</a>"),
                    v("'<empty/>'", "<empty/>"))),
            new Typed("t_varchar_free", "VARCHAR", true, List.of(v("'no length'", "no length"), v("'ü'", "ü"))),
            new Typed("t_int_array", "INTEGER[]", true, List.of(v("'{1,2,3}'", "[1,2,3]"), v("'{}'", "[]"))),
            new Typed("t_text_array", "TEXT[]", true, List.of(v("'{\"a\",\"b c\"}'", "[\"a\",\"b c\"]"),
                    v("'{NULL}'", "[null]"))));

    @Test
    void aWholeDatabaseLoadsIntoAnEmptyTargetWithEventSchemasAndWithTheSourceCatalog(
            @InjectClusterClient ClusterClient<?> flink) throws Exception {
        long startNanos = System.nanoTime();
        try (PostgresServer postgres = PostgresServer.start(); EmbeddedKafka kafka = EmbeddedKafka.start();
                StarRocksEmulator target = StarRocksEmulator.builder().build().start()) {
            postgres.execute(sourceDdl());
            insertRow(postgres, 1, 0); // the snapshot rows

            String withSchemas = sync(postgres, kafka, target, flink, "wa", true, "sync_a",
                    List.of("--exclude-tables", "public\\.t_refused"), "t_late_a");
            assertThat(tables(target, "sync_a")).as("a table without events is not created from event schemas")
                    .doesNotContain("t_empty").contains("t_late_a", "lockstep_progress");
            long withSchemasMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);

            String catalogUrl = "jdbc:postgresql://localhost:" + postgres.port() + "/postgres";
            String refused = EndToEndChecks.runJobInto(kafka.bootstrapServers(), target, "sync_c", "it-refused",
                    "--topic", DebeziumConnectors.combinedTopic("wa"), "--create-tables", "--jdbc-url",
                    target.jdbcUrl(), "--source-jdbc-url", catalogUrl, "--source-user", "postgres",
                    "--include-tables", "public\\.t_int2,public\\.t_refused");
            assertThat(refused).startsWith("1 lockstep run: --create-tables: ").contains("public.t_refused.v")
                    .contains("nothing was created");
            assertThat(databases(target)).as("nothing created").contains("sync_a").doesNotContain("sync_c");

            List<String> included = TYPES.stream().filter(Typed::withoutSchemas).map(t -> "public\\." + t.table())
                    .collect(Collectors.toCollection(ArrayList::new));
            included.addAll(List.of("public\\.t_composite", "public\\.t_text_key", "public\\.t_late_.*",
                    "public\\.t_empty"));
            String withCatalog = sync(postgres, kafka, target, flink, "wb", false, "sync_b", List.of(
                    "--source-jdbc-url", catalogUrl,
                    "--source-user", "postgres", "--source-password", "postgres",
                    "--include-tables", String.join(",", included)), "t_late_b");
            assertThat(tables(target, "sync_b")).as("the source catalog creates every included table, with events "
                    + "or without").contains("t_empty", "t_composite", "t_late_a", "t_late_b")
                    .doesNotContain("t_date", "t_json");
            System.out.printf("Whole database sync: %d typed tables, %s; %s; %d ms (with schemas %d ms)%n",
                    TYPES.size(), withSchemas, withCatalog, TimeUnit.NANOSECONDS.toMillis(System.nanoTime()
                            - startNanos), withSchemasMs);
        }
    }

    /**
     * One run: a connector with or without schemas, the job with {@code --create-tables} into {@code database}, rows
     * inserted and updated while it streams, a table created in the source mid-stream; waits until the target equals
     * the source, then stops the job and the connector.
     *
     * @return a short account for the summary line
     */
    private static String sync(PostgresServer postgres, EmbeddedKafka kafka, StarRocksEmulator target,
            ClusterClient<?> flink, String prefix, boolean schemas, String database, List<String> options,
            String lateTable) throws Exception {
        String topic = DebeziumConnectors.combinedTopic(prefix);
        kafka.createTopic(topic, 1);
        Properties connector = DebeziumConnectors.postgres(postgres.port(), prefix, "lockstep_" + prefix,
                "public\\..*", schemas);
        connector.setProperty("publication.autocreate.mode", "all_tables"); // a table created later is published
        if (schemas) {
            connector.setProperty("column.propagate.source.type", "public\\.t_(varchar|char|numeric|composite|text_key)\\..*");
        } else {
            connector.setProperty("decimal.handling.mode", "string");
        }
        List<String> args = new ArrayList<>(List.of("--topic", topic, "--create-tables", "--jdbc-url",
                target.jdbcUrl(), "--table-property", "replication_num=1"));
        args.addAll(options);
        try (DebeziumKafkaPublisher debezium = DebeziumKafkaPublisher.start(connector, kafka.bootstrapServers())) {
            CompletableFuture<String> job = CompletableFuture.supplyAsync(() -> EndToEndChecks.runJobInto(
                    kafka.bootstrapServers(), target, database, "it-" + prefix, args.toArray(String[]::new)));
            try {
                EndToEndChecks.awaitJobRunning(flink, job);
                awaitEqual(postgres, target, database, schemas, List.of(), job);
                int round = schemas ? 2 : 3;
                insertRow(postgres, round, 1); // streamed rows, one transaction across every table
                postgres.execute(List.of("CREATE TABLE " + lateTable + " (id BIGINT PRIMARY KEY, v VARCHAR(10))",
                        "INSERT INTO " + lateTable + " VALUES (1, 'late'), (2, NULL)"));
                postgres.execute(List.of("UPDATE t_composite SET v = 'updated " + round + "' WHERE a = 1",
                        "DELETE FROM t_text_key WHERE id = 'k" + round + "'"));
                awaitEqual(postgres, target, database, schemas, List.of(lateTable), job);
                assertThat(job).as("the job keeps running").isNotDone();
                assertThat(debezium.failure()).isNull();
                return database + ": " + debezium.published() + " records";
            } finally {
                EndToEndChecks.cancelJobs(flink);
                job.get(60, TimeUnit.SECONDS);
            }
        }
    }

    private static List<String> sourceDdl() {
        List<String> ddl = new ArrayList<>(List.of("CREATE TYPE mood AS ENUM ('sad', 'happy')"));
        for (Typed typed : TYPES) {
            ddl.add("CREATE TABLE " + typed.table() + " (id INTEGER PRIMARY KEY, v " + typed.type() + ")");
        }
        ddl.add("CREATE TABLE t_composite (a INTEGER, b VARCHAR(10), v TEXT, PRIMARY KEY (a, b))");
        ddl.add("CREATE TABLE t_text_key (id VARCHAR(16) PRIMARY KEY, v INTEGER)");
        ddl.add("CREATE TABLE t_empty (id INTEGER PRIMARY KEY, v TEXT)"); // never receives an event
        ddl.add("CREATE TABLE t_refused (id INTEGER PRIMARY KEY, v NUMERIC)"); // no precision: refused
        ddl.add("INSERT INTO t_refused VALUES (1, 1.5)");
        return ddl;
    }

    /** Inserts row {@code id} into every table in one transaction: the value of index {@code value}, and a NULL. */
    private static void insertRow(PostgresServer postgres, int id, int value) throws Exception {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            for (Typed typed : TYPES) {
                statement.execute("INSERT INTO " + typed.table() + " VALUES (" + id + ", "
                        + typed.values().get(value)[0] + ")");
                statement.execute("INSERT INTO " + typed.table() + " VALUES (" + (100 + id) + ", NULL)");
            }
            statement.execute("INSERT INTO t_composite VALUES (" + id + ", 'b" + id + "', 'c" + id + "')");
            statement.execute("INSERT INTO t_text_key VALUES ('k" + id + "', " + id + ")");
            connection.commit();
        }
    }

    /**
     * Waits (up to 60 s) until every target table the run loads equals what the source holds, value by value.
     *
     * @throws AssertionError naming the first table that differs, or the job's output when it ended
     */
    private static void awaitEqual(PostgresServer postgres, StarRocksEmulator target, String database,
            boolean schemas, List<String> lateTables, CompletableFuture<String> job) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Map<String, List<String>> expected = expected(postgres, schemas, lateTables);
        String difference = "";
        while (System.nanoTime() < deadline) {
            if (job.isDone()) {
                throw new AssertionError("the job ended: " + job.join());
            }
            difference = difference(target, database, expected);
            if (difference.isEmpty()) {
                return;
            }
            Thread.sleep(300);
        }
        throw new AssertionError("waited 60 s for " + database + " to equal the source: " + difference);
    }

    /**
     * @return per table its rows as {@code id|value} texts: the typed tables' rows as the source holds them, each value
     *     as the target shows it (the value lists above); the other tables' rows as the source shows them
     */
    private static Map<String, List<String>> expected(PostgresServer postgres, boolean schemas,
            List<String> lateTables) throws Exception {
        Map<String, List<String>> expected = new LinkedHashMap<>();
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            for (Typed typed : TYPES) {
                if (!schemas && !typed.withoutSchemas()) {
                    continue;
                }
                List<String> rows = new ArrayList<>();
                try (var rs = statement.executeQuery("SELECT id FROM " + typed.table() + " ORDER BY id")) {
                    while (rs.next()) {
                        rows.add(rs.getInt(1) + "|" + targetText(typed, rs.getInt(1)));
                    }
                }
                expected.put(typed.table(), rows);
            }
            expected.put("t_composite", rows(statement, "SELECT a, b, v FROM t_composite ORDER BY a, b"));
            expected.put("t_text_key", rows(statement, "SELECT id, v FROM t_text_key ORDER BY id"));
            for (String late : lateTables) {
                expected.put(late, rows(statement, "SELECT id, v FROM " + late + " ORDER BY id"));
            }
        }
        return expected;
    }

    /**
     * @return the value the target must hold in row {@code id} of a typed table: row 1 holds the first value of the
     *     list, a streamed row the second, rows 100 and up NULL ({@link #insertRow})
     */
    private static String targetText(Typed typed, int id) {
        return id >= 100 ? "null" : typed.values().get(id == 1 ? 0 : 1)[1];
    }

    private static List<String> rows(Statement statement, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (var rs = statement.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> values = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    values.add(String.valueOf(rs.getString(i)));
                }
                rows.add(String.join("|", values));
            }
        }
        return rows;
    }

    /** @return {@code SHOW TABLES FROM database} through the target's MySQL-protocol port */
    private static List<String> tables(StarRocksEmulator target, String database) throws Exception {
        List<String> tables = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(target.jdbcUrl(), "root", "");
                Statement statement = connection.createStatement();
                var rs = statement.executeQuery("SHOW TABLES FROM " + database)) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        return tables;
    }

    /** @return {@code SHOW DATABASES} through the target's MySQL-protocol port */
    private static List<String> databases(StarRocksEmulator target) throws Exception {
        List<String> databases = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(target.jdbcUrl(), "root", "");
                Statement statement = connection.createStatement();
                var rs = statement.executeQuery("SHOW DATABASES")) {
            while (rs.next()) {
                databases.add(rs.getString(1));
            }
        }
        return databases;
    }

    /** @return what differs between {@code expected} and the target (empty when nothing does) */
    private static String difference(StarRocksEmulator target, String database, Map<String, List<String>> expected) {
        List<String> differences = new ArrayList<>();
        for (Map.Entry<String, List<String>> table : expected.entrySet()) {
            List<String> actual;
            try {
                actual = target.query("SELECT * FROM " + database + "." + table.getKey()).rows().stream()
                        .map(row -> row.stream().map(String::valueOf).collect(Collectors.joining("|")))
                        .sorted().toList();
            } catch (RuntimeException e) {
                differences.add("table " + table.getKey() + ": " + e.getMessage());
                continue;
            }
            List<String> wanted = table.getValue().stream().sorted().toList();
            if (!actual.equals(wanted)) {
                differences.add("table " + table.getKey() + ": expected " + wanted + ", got " + actual);
            }
        }
        return String.join("; ", differences);
    }
}
