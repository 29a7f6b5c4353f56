package io.lockstep.app.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.emulator.DorisEmulator;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.load.LoadFormat;
import io.lockstep.emulator.load.ParsedBatch;
import io.lockstep.emulator.load.StreamLoadBodyParser;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rule table of docs/dead-letter.md ("Bad values"), case by case: each value goes through the job's own check
 * ({@link ValueRules}, with the column as {@code DESC} through the query port describes it, {@link JdbcColumnReader},
 * and as {@code information_schema.columns} through the HTTP SQL API does, {@link HttpSqlColumnReader})
 * and through the emulator's stream load parser with {@code strict_mode=true}, and both verdicts are asserted, for a
 * StarRocks and a Doris target (each with its own {@code DESC}). They
 * agree except where the job is stricter on purpose (the server would change the value): a fractional part for an
 * integer column, more decimal places than the scale.
 */
class ValueVerdictTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DDL = """
            CREATE DATABASE v;
            CREATE TABLE v.cases (
              k INT NOT NULL, nn INT NOT NULL, b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, li LARGEINT,
              f FLOAT, db DOUBLE, dec DECIMAL(5, 2), c CHAR(3), vc VARCHAR(4), s STRING, dt DATE, ts DATETIME, j JSON
            ) %s KEY (k);
            """;

    private static StarRocksEmulator starRocks;
    private static DorisEmulator doris;
    /** The columns as each target's DESC prints them, by target name. */
    private static final Map<String, Map<String, TargetColumn>> COLUMNS = new LinkedHashMap<>();
    private static final Map<String, TableSchema> TABLES = new LinkedHashMap<>();
    private static Map<String, TargetColumn> columns;
    private static TableSchema table;

    /** A value for a column; {@code job}/{@code server}: whether each takes it (true) or refuses it (false). */
    private record Case(String column, String json, boolean job, boolean server) {
        static Case ok(String column, String json) {
            return new Case(column, json, true, true);
        }

        static Case bad(String column, String json) {
            return new Case(column, json, false, false);
        }

        /** The job refuses what the server would change. */
        static Case changed(String column, String json) {
            return new Case(column, json, false, true);
        }
    }

    private static final List<Case> CASES = List.of(
            // wrong type
            Case.ok("bi", "42"), Case.ok("bi", "\"42\""), Case.ok("bi", "\" 42 \""), Case.bad("bi", "\"abc\""),
            Case.bad("i", "true"), Case.bad("db", "\"x\""), Case.bad("f", "\"1,5\""), Case.bad("dec", "\"1.2.3\""),
            Case.ok("b", "true"), Case.ok("b", "0"), Case.bad("b", "\"yes\""), Case.ok("j", "{\"a\":[1]}"),
            // out of range
            Case.ok("ti", "-128"), Case.bad("ti", "128"), Case.bad("si", "32768"), Case.ok("i", "-2147483648"),
            Case.bad("i", "2147483648"), Case.bad("bi", "9223372036854775808"),
            Case.ok("li", "170141183460469231731687303715884105727"),
            Case.bad("li", "170141183460469231731687303715884105728"), Case.ok("f", "3.4e38"), Case.bad("f", "1e39"),
            Case.bad("db", "\"1e400\""), Case.ok("dec", "999.99"), Case.bad("dec", "1000"), Case.ok("dec", "\"-1.5\""),
            // values the server would change
            Case.changed("bi", "1.5"), Case.changed("i", "\"7.25\""), Case.ok("i", "7.0"),
            Case.changed("dec", "1.005"), Case.ok("dec", "1.500"),
            Case.changed("dec", "1.10000000000000000001"), // read as written, not as the double 1.1
            // over-long CHAR/VARCHAR/STRING, counted in UTF-8 bytes
            Case.ok("c", "\"abc\""), Case.bad("c", "\"abcd\""), Case.ok("vc", "\"ää\""),
            Case.bad("vc", "\"ääb\""), Case.ok("vc", "\"abcd\""), Case.bad("vc", "12345"),
            Case.ok("s", "\"" + "x".repeat(65_533) + "\""), Case.bad("s", "\"" + "x".repeat(65_534) + "\""),
            // NULL into NOT NULL
            Case.bad("nn", "null"), Case.ok("i", "null"),
            // unparsable dates
            Case.ok("dt", "\"2026-01-31\""), Case.ok("dt", "\"20260131\""), Case.ok("dt", "\"2026-01-31 10:00:00\""),
            Case.bad("dt", "\"2026-02-30\""), Case.bad("dt", "\"31.01.2026\""), Case.bad("dt", "\"\""),
            Case.ok("ts", "\"2026-01-31 12:00:00\""), Case.ok("ts", "\"2026-01-31T12:00:00.123456\""),
            Case.ok("ts", "\"2026-01-31\""), Case.bad("ts", "\"2026-01-31 25:00:00\""),
            Case.bad("ts", "\"yesterday\""));

    @BeforeAll
    static void start() throws Exception {
        starRocks = StarRocksEmulator.builder().ddl(DDL.formatted("PRIMARY")).build().start();
        doris = DorisEmulator.builder().ddl(DDL.formatted("UNIQUE")).build().start();
        read("starrocks", new JdbcColumnReader(starRocks.jdbcUrl(), "root", ""),
                starRocks.catalog().table("v", "cases").orElseThrow());
        read("doris", new JdbcColumnReader(doris.jdbcUrl(), "root", ""),
                doris.catalog().table("v", "cases").orElseThrow());
        read("starrocks-http", new HttpSqlColumnReader(StarRocksSinkOptions.builder()
                .withProperty("load-url", starRocks.feUrl()).withProperty("database-name", "v")
                .withProperty("table-name", "cases").withProperty("username", "root").withProperty("password", "")
                .withProperty("sink.properties.format", "json").build()),
                starRocks.catalog().table("v", "cases").orElseThrow());
        read("doris-schema", new DorisSchemaColumnReader(StarRocksSinkOptions.builder()
                .withProperty("load-url", doris.feUrl()).withProperty("database-name", "v")
                .withProperty("table-name", "cases").withProperty("username", "root").withProperty("password", "")
                .withProperty("sink.properties.format", "json").build()),
                doris.catalog().table("v", "cases").orElseThrow());
        columns = COLUMNS.get("starrocks");
        table = TABLES.get("starrocks");
    }

    private static void read(String target, ColumnReader reader, TableSchema schema) throws Exception {
        Map<String, TargetColumn> described = new LinkedHashMap<>();
        for (TargetColumn column : reader.columns("v", "cases")) {
            described.put(column.name(), column);
        }
        COLUMNS.put(target, described);
        TABLES.put(target, schema);
    }

    @AfterAll
    static void stop() {
        starRocks.close();
        doris.close();
    }

    /**
     * Doris' {@code _schema} (no {@code --jdbc-url}) has no CHAR/VARCHAR length and no nullability: the values of
     * these columns are left to strict mode (docs/dead-letter.md).
     */
    private static final List<String> SCHEMA_UNCHECKED = List.of("c", "vc", "s", "nn");

    @Test
    void dorisSchemaReadsTheTypesOfDescExceptLengthsAndNullability() {
        Map<String, TargetColumn> schema = COLUMNS.get("doris-schema");
        assertThat(schema.keySet()).containsExactlyElementsOf(COLUMNS.get("doris").keySet());
        for (TargetColumn described : COLUMNS.get("doris").values()) {
            TargetColumn read = schema.get(described.name());
            assertThat(read.nullable()).as(read.name()).isTrue();
            if (described.type().matches("(var)?char.*|json")) { // no length in _schema; JSON not checked at all
                assertThat(read.type()).as(read.name()).isNull();
            } else {
                assertThat(read.type()).as(read.name()).isNotNull();
                assertThat(described.type()).as(read.name()).startsWith(read.type().replaceAll("\\(.*", ""));
            }
        }
        assertThat(schema.get("dec").type()).isEqualTo("decimal(5,2)");
    }

    @Test
    void theColumnsAreReadWithTheirTypesAndNullability() {
        assertThat(columns.get("vc")).isEqualTo(new TargetColumn("vc", "varchar(4)", true));
        assertThat(columns.get("nn")).isEqualTo(new TargetColumn("nn", "int(11)", false));
        assertThat(columns.get("dec").type()).isEqualTo("decimal(5,2)");
        assertThat(COLUMNS.get("doris").keySet()).containsExactlyElementsOf(columns.keySet());
        assertThat(COLUMNS.get("starrocks-http")).as("information_schema.columns over HTTP reads what DESC reads")
                .isEqualTo(columns);
    }

    @ParameterizedTest
    @ValueSource(strings = {"starrocks", "doris", "starrocks-http", "doris-schema"})
    void eachCaseGetsTheSameVerdictFromTheJobAndFromTheServerInStrictMode(String target) throws Exception {
        for (Case c : CASES) {
            String row = "{\"k\":1,\"nn\":0,\"" + c.column() + "\":" + c.json() + "}";
            String label = target + ": " + c.column() + " = " + abbreviate(c.json());

            BadValue job = BadValue.firstIn(row, COLUMNS.get(target));
            ParsedBatch server = load(TABLES.get(target), row, true);

            boolean unchecked = target.equals("doris-schema") && SCHEMA_UNCHECKED.contains(c.column());
            assertThat(job == null).as("job verdict for " + label + ": " + job).isEqualTo(c.job() || unchecked);
            assertThat(server.filteredRows() == 0).as("strict-mode verdict for " + label + ": " + server.errorRows())
                    .isEqualTo(c.server());
            if (!c.server()) { // what the ErrorURL's log serves: the reason, naming the column
                assertThat(server.errorRows()).singleElement().asString().startsWith("Error: ")
                        .contains("'" + c.column() + "'");
            }
        }
    }

    @Test
    void withoutStrictModeTheServerStoresNullForABadValueSilently() throws Exception {
        ParsedBatch loaded = load(table, "{\"k\":1,\"nn\":0,\"bi\":\"abc\",\"vc\":\"" + "v".repeat(64) + "\"}",
                false);

        assertThat(loaded.filteredRows()).isZero();
        assertThat(loaded.rows().get(0).values()[table.columnIndex("bi")]).isNull();
        assertThat(loaded.rows().get(0).values()[table.columnIndex("vc")]).as("VARCHAR overflow, e.g. from a SQL "
                + "sink's STRING column").isNull();
    }

    private static ParsedBatch load(TableSchema table, String row, boolean strict) throws Exception {
        JsonNode parsed = JSON.readTree(row); // the case itself must be valid JSON
        assertThat(parsed.isObject()).isTrue();
        return new StreamLoadBodyParser().parse(table, LoadFormat.fromHeaders(Map.of("format", "json",
                "strict_mode", Boolean.toString(strict))), row.getBytes(StandardCharsets.UTF_8));
    }

    private static String abbreviate(String json) {
        return json.length() <= 40 ? json : json.substring(0, 40) + "...(" + json.length() + " chars)";
    }
}
