package io.lockstep.app.rebuild;

import static io.lockstep.app.rebuild.RebuildEvents.begin;
import static io.lockstep.app.rebuild.RebuildEvents.end;
import static io.lockstep.app.rebuild.RebuildEvents.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.route.UnknownTableMode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.throwable.ThrowableClassifier;
import org.apache.flink.runtime.throwable.ThrowableType;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Rules 6 and 8 of the cross-topic rebuild: tables whose topics are not read, the byte and time bounds. */
class RebuildStopsTest {

    @Test
    void anUnreadTableIsLeftOutWithOneWarnLineUnderSkip() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream err = System.err;
        List<SourceEvent> out;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8)); // slf4j-simple writes to System.err
        try (RebuildHarness h = new RebuildHarness(RebuildHarness.layout(Long.MAX_VALUE), UnknownTableMode.SKIP,
                null, null)) {
            h.send(begin(0, "701:980"), row("orders", 0, 0, "701:990", 1, "{\"order\":1}"),
                    end(1, "701:1000", "orders", 1L, "audit", 2L),
                    begin(2, "702:1980"), row("orders", 0, 1, "702:1990", 2, "{\"order\":2}"),
                    end(3, "702:2000", "audit", 1L, "orders", 1L));
            out = h.take();
        } finally {
            System.setErr(err);
        }
        assertThat(out.stream().map(RebuildEvents::brief).toList()).containsExactly("BEGIN 701",
                "ROW pg.public.orders/0@0", "END 701 #0", "BEGIN 702", "ROW pg.public.orders/0@1", "END 702 #1");
        assertThat(out.get(2).getEventCount()).as("the audit table's count is removed").isEqualTo(1);
        assertThat(out.get(2).getTableEventCounts()).isEqualTo(Map.of("public.orders", 1L));
        String text = log.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("WARN").contains("public.audit").contains("'pg.public.audit'");
        assertThat(text.split("Table public.audit", -1)).as("said once").hasSize(2);
    }

    @Test
    void anUnreadTableStopsTheJobNamingTableTopicAndOption() throws Exception {
        try (RebuildHarness h = RebuildHarness.ordersAndItems()) {
            String failure = rebuildFailure(() -> h.send(begin(0, "701:980"),
                    end(1, "701:1000", "orders", 1L, "audit", 2L)));

            assertThat(failure).contains("'701:1000'", "offset 1", "table public.audit", "'pg.public.audit'",
                    "--unknown-table skip", "--topic");
        }
    }

    @Test
    void anEndOnASecondPartitionOfTheTransactionTopicStops() throws Exception {
        try (RebuildHarness h = RebuildHarness.ordersAndItems()) {
            SourceEvent end = end(4, "701:1000", "orders", 1L);
            end.setPartition(1);

            assertThat(rebuildFailure(() -> h.send(end))).contains("'701:1000'", "partition 1 offset 4",
                    "more than one partition");
        }
    }

    @Test
    void theByteBoundStopsNamingTheHeadTransactionAndWhatItWaitsFor() throws Exception {
        try (RebuildHarness h = new RebuildHarness(RebuildHarness.layout(40), UnknownTableMode.FAIL, null, null)) {
            h.send(row("items", 0, 0, "702:1990", 1, "{\"item\":2}"), // 10 bytes
                    begin(0, "701:980"), end(1, "701:1000", "orders", 2L, "items", 1L),
                    row("orders", 0, 0, "701:990", 1, "{\"order\":1,\"n\":0}")); // 17 bytes

            String failure = rebuildFailure(() -> h.send(row("orders", 1, 0, "701:991", 2,
                    "{\"order\":2,\"n\":0}")));

            assertThat(failure).contains("44 bytes", "--max-pending-bytes 40", "transaction '701:1000'",
                    "topic 'pg.transaction' partition 0 offset 1", "waits for 1 of 3 events",
                    "table public.items 0 of 1 (topic 'pg.public.items', partitions read: 0 up to offset 0)")
                    .doesNotContain("public.orders 2"); // orders is complete
        }
    }

    @Test
    void theTimeBoundStopsWhenTheHeadEndWaitsTooLong() throws Exception {
        try (RebuildHarness h = RebuildHarness.ordersAndItems()) {
            h.advanceTo(1_000);
            h.send(begin(0, "701:980"), end(1, "701:1000", "orders", 1L));
            h.advanceTo(1_000 + RebuildHarness.MAX_OPEN_MS - 1);
            assertThat(h.take()).isEmpty();

            String failure = rebuildFailure(() -> h.advanceTo(1_000 + RebuildHarness.MAX_OPEN_MS));

            assertThat(failure).contains("transaction '701:1000'", "waits for 1 of 1 events",
                    "table public.orders 0 of 1 (topic 'pg.public.orders', no partition read yet)",
                    "over 60000 ms (--max-transaction-open)");
        }
    }

    @Test
    void aHeadReleasedInTimeDoesNotStop() throws Exception {
        try (RebuildHarness h = RebuildHarness.ordersAndItems()) {
            h.send(begin(0, "701:980"), end(1, "701:1000", "orders", 1L));
            h.advanceTo(RebuildHarness.MAX_OPEN_MS - 1);
            h.send(row("orders", 0, 0, "701:990", 1, "{\"order\":1}"), begin(2, "702:1980"),
                    end(3, "702:2000", "orders", 1L));
            h.advanceTo(RebuildHarness.MAX_OPEN_MS); // the first head's timer: released meanwhile
            assertThat(h.takeBrief()).containsExactly("BEGIN 701", "ROW pg.public.orders/0@0", "END 701 #0");

            String failure = rebuildFailure(() -> h.advanceTo(2 * RebuildHarness.MAX_OPEN_MS - 1));
            assertThat(failure).as("the second head waits from when it became head").contains("'702:2000'");
        }
    }

    @Test
    void theEndOfABoundedInputSaysAtWarnWhatIsStillHeld() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream err = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8)); // slf4j-simple writes to System.err
        try (RebuildHarness h = RebuildHarness.ordersAndItems()) {
            h.send(begin(0, "701:980"), row("orders", 0, 0, "701:990", 1, "{\"order\":1}"),
                    end(1, "701:1000", "orders", 1L, "items", 1L));
            h.endInput();
            assertThat(h.take()).isEmpty();
        } finally {
            System.setErr(err);
        }
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("WARN", "1 ENDs queued", "11 bytes",
                "transaction '701:1000'", "table public.items 0 of 1", "reads them again");
    }

    /** Runs {@code action}; it must fail with a {@link TransactionRebuildException} Flink never restarts. */
    private static String rebuildFailure(ThrowingCallable action) {
        Throwable thrown = catchThrowable(action);
        assertThat(thrown).as("the rebuild stops").isNotNull();
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof TransactionRebuildException) {
                assertThat(ThrowableClassifier.getThrowableType(t)).isEqualTo(ThrowableType.NonRecoverableError);
                assertThat(t.getMessage()).doesNotContain("\n").doesNotContain("\"order\"");
                return t.getMessage();
            }
        }
        throw new AssertionError("not a TransactionRebuildException", thrown);
    }
}
