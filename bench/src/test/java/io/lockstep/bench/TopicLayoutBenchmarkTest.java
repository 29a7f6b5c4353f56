package io.lockstep.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.kafka.EmbeddedKafka;
import io.lockstep.bench.LayoutTopics.Layout;
import io.lockstep.bench.LayoutTopics.Written;
import io.lockstep.emulator.StarRocksEmulator;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The topic-layout benchmark at a tiny size: the same few hundred source transactions written in both layouts, each
 * read by one bounded {@code lockstep run} into the emulator; the counts loaded must equal the counts written (the
 * timing is not checked).
 */
class TopicLayoutBenchmarkTest {
    private static final long TRANSACTIONS = 300;
    private static EmbeddedKafka kafka;
    private static StarRocksEmulator emulator;
    private static List<Written> layouts;
    @TempDir
    static Path stateRoot;

    @BeforeAll
    static void writeBothLayouts() throws Exception {
        kafka = EmbeddedKafka.start();
        emulator = CountingParser.emulatorKeepingProgress(PgOrderWorkload.ddl(TopicLayoutBenchmark.DATABASE)
                + BenchTables.progressTableDdl());
        layouts = TopicLayoutBenchmark.writeBoth(kafka, TRANSACTIONS, line -> { });
    }

    @AfterAll
    static void stop() {
        if (emulator != null) {
            emulator.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void bothLayoutsHoldTheSameTransactionsInTheirOwnTopics() {
        Written one = layout(Layout.ONE_TOPIC);
        Written perTable = layout(Layout.TOPIC_PER_TABLE);

        assertThat(one.tableTopics()).containsExactly("one.cdc");
        assertThat(one.transactionTopic()).isNull();
        assertThat(perTable.tableTopics()).containsExactly("pg.public.orders", "pg.public.order_items",
                "pg.public.customers");
        assertThat(perTable.transactionTopic()).isEqualTo("pg.transaction");
        for (Written w : layouts) {
            assertThat(w.transactions()).isEqualTo(TRANSACTIONS);
            assertThat(w.rows()).isEqualTo(TRANSACTIONS * PgOrderWorkload.ROWS_PER_TRANSACTION);
            assertThat(w.messages()).isEqualTo(TRANSACTIONS * (PgOrderWorkload.ROWS_PER_TRANSACTION + 2));
        }
    }

    @Test
    void theOneTopicLayoutLoadsEveryRowWritten() throws Exception {
        assertLoadsEverything(layout(Layout.ONE_TOPIC), 1);
    }

    @Test
    void theTopicPerTableLayoutLoadsEveryRowWritten() throws Exception {
        assertLoadsEverything(layout(Layout.TOPIC_PER_TABLE), 2);
    }

    private static void assertLoadsEverything(Written written, int parallelism) throws Exception {
        Map<String, Long> before = new HashMap<>();
        for (String table : PgOrderWorkload.TABLES) {
            before.put(table, emulator.rowCount(TopicLayoutBenchmark.DATABASE, table));
        }

        TopicLayoutRun run = TopicLayoutBenchmark.run(kafka, emulator, written, parallelism, 0, stateRoot);
        System.out.println(TopicLayoutBenchmark.describe(run));

        assertThat(run.transactions()).isEqualTo(TRANSACTIONS);
        assertThat(run.rows()).isEqualTo(TRANSACTIONS * PgOrderWorkload.ROWS_PER_TRANSACTION);
        for (String table : PgOrderWorkload.TABLES) {
            assertThat(emulator.rowCount(TopicLayoutBenchmark.DATABASE, table) - before.get(table)).as(table)
                    .isEqualTo(PgOrderWorkload.rowsPerTable(TRANSACTIONS).get(table));
        }
        assertThat(run.seconds()).isPositive().isLessThanOrEqualTo(run.commandSeconds());
    }

    private static Written layout(Layout layout) {
        return layouts.stream().filter(w -> w.layout() == layout).findFirst().orElseThrow();
    }
}
