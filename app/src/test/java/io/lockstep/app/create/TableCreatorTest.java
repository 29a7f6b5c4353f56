package io.lockstep.app.create;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.create.TableCreator.Outcome;
import io.lockstep.app.route.TargetTable;
import io.lockstep.core.progress.ProgressTable;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.catalog.KeysType;
import io.lockstep.emulator.catalog.TableSchema;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TableCreator} against the emulator's MySQL-protocol port. */
class TableCreatorTest {

    private static final SourceTable ORDERS = new SourceTable("shop", "orders", List.of(
            new SourceColumn("note", "text", null, null, true, null, null, null),
            new SourceColumn("order_id", "int8", null, null, false, null, null, null),
            new SourceColumn("total", "numeric", 12, 2, true, null, null, null)), List.of("order_id"));

    @Test
    void anEmptyTargetGetsTheDatabaseAndTheTableAndARestartFindsThemTheSame() throws Exception {
        try (StarRocksEmulator starRocks = StarRocksEmulator.builder().build().start()) {
            TableCreator creator = new TableCreator(starRocks.jdbcUrl(), "root", "", 10_000);
            TargetTable target = new TargetTable("dw", "ods_orders");

            creator.ensureDatabase("dw");
            creator.ensureDatabase("dw");
            Outcome[] outcomes = new Outcome[2];
            String log = capturingStderr(() -> {
                outcomes[0] = creator.ensureTable(target, ORDERS, TableCreationOptions.defaults());
                outcomes[1] = creator.ensureTable(target, ORDERS, TableCreationOptions.defaults());
            });

            assertThat(outcomes).containsExactly(Outcome.CREATED, Outcome.ALREADY_SAME);
            assertThat(log.lines().filter(l -> l.contains("INFO"))).singleElement().asString()
                    .endsWith("created table dw.ods_orders for source table shop.orders (3 columns, primary key"
                            + " [order_id])");
            TableSchema table = starRocks.catalog().table("dw", "ods_orders").orElseThrow();
            assertThat(table.keysType()).isEqualTo(KeysType.PRIMARY_KEYS);
            assertThat(table.keyColumns()).containsExactly("order_id");
            assertThat(table.columns()).extracting(c -> c.name() + " " + c.type().kind() + " " + c.nullable())
                    .containsExactly("order_id BIGINT false", "note STRING true", "total DECIMAL true");
        }
    }

    @Test
    void aTableWithACompositeKeyBucketsAndPropertiesOutlivesATargetRestart(@TempDir Path dir) throws Exception {
        String storage = "h2:file:" + dir.resolve("emulator");
        TargetTable target = new TargetTable("dw", "order_lines");
        SourceTable lines = new SourceTable("shop", "order_lines", List.of(
                new SourceColumn("qty", "int4", null, null, true, null, null, null),
                new SourceColumn("line", "int2", null, null, false, null, null, null),
                new SourceColumn("order_id", "int8", null, null, false, null, null, null)),
                List.of("order_id", "line"));
        TableCreationOptions options = new TableCreationOptions(2, Map.of("replication_num", "1"), Map.of(),
                Map.of(), TableCreationOptions.DEFAULT_PRIMARY_KEY_LIMIT_BYTES);
        try (StarRocksEmulator starRocks = StarRocksEmulator.builder().storage(storage).build().start()) {
            TableCreator creator = new TableCreator(starRocks.jdbcUrl(), "root", "", 10_000);
            creator.ensureDatabase("dw");
            assertThat(creator.ensureTable(target, lines, options)).isEqualTo(Outcome.CREATED);
        }
        try (StarRocksEmulator starRocks = StarRocksEmulator.builder().storage(storage).build().start()) {
            TableCreator creator = new TableCreator(starRocks.jdbcUrl(), "root", "", 10_000);
            creator.ensureDatabase("dw");
            assertThat(creator.ensureTable(target, lines, options)).isEqualTo(Outcome.ALREADY_SAME);
            assertThat(starRocks.catalog().table("dw", "order_lines").orElseThrow().keyColumns())
                    .containsExactly("order_id", "line");
        }
    }

    @Test
    void aTableThatExistsWithOtherColumnsIsLeftAsItIsWithOneWarning() throws Exception {
        String ddl = "CREATE DATABASE dw; CREATE TABLE dw.orders (order_id BIGINT NOT NULL, legacy INT)"
                + " PRIMARY KEY (order_id) DISTRIBUTED BY HASH(order_id) BUCKETS 1;";
        try (StarRocksEmulator starRocks = StarRocksEmulator.builder().ddl(ddl).build().start()) {
            TableCreator creator = new TableCreator(starRocks.jdbcUrl(), "root", "", 10_000);

            String log = capturingStderr(() -> assertThat(creator.ensureTable(new TargetTable("dw", "orders"), ORDERS,
                    TableCreationOptions.defaults())).isEqualTo(Outcome.EXISTS_DIFFERENT));

            assertThat(log.lines().filter(l -> l.contains("WARN")).count()).isEqualTo(1);
            assertThat(log).contains("table dw.orders exists with other columns than source table shop.orders has"
                    + " (missing [note, total], extra [legacy]); left as it is");
            assertThat(starRocks.catalog().table("dw", "orders").orElseThrow().columns())
                    .extracting(c -> c.name()).containsExactly("order_id", "legacy");
        }
    }

    @Test
    void theProgressTableIsCreatedOnce() throws Exception {
        try (StarRocksEmulator starRocks = StarRocksEmulator.builder().ddl("CREATE DATABASE dw;").build().start()) {
            TableCreator creator = new TableCreator(starRocks.jdbcUrl(), "root", "", 10_000);
            ProgressTable progress = new ProgressTable("dw", ProgressTable.DEFAULT_NAME);

            assertThat(creator.ensureProgressTable(progress)).isEqualTo(Outcome.CREATED);
            assertThat(creator.ensureProgressTable(progress)).isEqualTo(Outcome.ALREADY_SAME);
            assertThat(starRocks.catalog().table("dw", ProgressTable.DEFAULT_NAME).orElseThrow().columns())
                    .extracting(c -> c.name()).containsExactlyElementsOf(ProgressTable.COLUMNS);
        }
    }

    @Test
    void aRefusedTableSendsNothingAndAStatementTheServerRefusesIsNamed() throws Exception {
        try (StarRocksEmulator starRocks = StarRocksEmulator.builder().ddl("CREATE DATABASE dw;").build().start()) {
            TableCreator creator = new TableCreator(starRocks.jdbcUrl(), "root", "", 10_000);
            SourceTable keyless = new SourceTable("shop", "log", ORDERS.columns(), List.of());

            assertThatThrownBy(() -> creator.ensureTable(new TargetTable("dw", "log"), keyless,
                    TableCreationOptions.defaults())).isInstanceOf(TableRefusedException.class);
            assertThat(starRocks.catalog().table("dw", "log")).isEmpty();
            assertThatThrownBy(() -> creator.ensureTable(new TargetTable("nowhere", "orders"), ORDERS,
                    TableCreationOptions.defaults())).isInstanceOf(java.sql.SQLException.class)
                    .hasMessageContaining("SHOW TABLES FROM `nowhere` failed: ");
        }
    }

    /** Runs {@code body} with stderr (slf4j-simple's target) captured, and returns what it printed. */
    static String capturingStderr(ThrowingRunnable body) throws Exception {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            body.run();
        } finally {
            System.setErr(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    /** A test body that may throw. */
    interface ThrowingRunnable {
        void run() throws Exception;
    }
}
