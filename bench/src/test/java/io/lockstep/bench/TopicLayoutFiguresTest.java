package io.lockstep.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.bench.LayoutTopics.Layout;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The layout section's arithmetic and table: medians over repeats, the per-repeat ratio of the two layouts. */
class TopicLayoutFiguresTest {

    @Test
    void ratesAreMediansOverRepeatsAndTheRatioPairsRunsOfTheSameRepeat() {
        List<TopicLayoutRun> runs = List.of(
                run(Layout.ONE_TOPIC, 1, 0, 10.0, -1), run(Layout.TOPIC_PER_TABLE, 1, 0, 20.0, 3 * 1024 * 1024),
                run(Layout.TOPIC_PER_TABLE, 1, 1, 10.0, 1024 * 1024), run(Layout.ONE_TOPIC, 1, 1, 5.0, -1),
                run(Layout.ONE_TOPIC, 1, 2, 8.0, -1), run(Layout.TOPIC_PER_TABLE, 1, 2, 16.0, 2 * 1024 * 1024));

        List<String> md = new TopicLayoutFigures(runs).markdown(1000, 3);

        // 100,000 rows in 10, 5, 8 s: 10,000, 20,000, 12,500 rows/s -> median 12,500
        assertThat(md).contains("| one topic | 1 | 3 | 12,500 (10,000–20,000) | 2,500 (2,000–4,000) | "
                + "8.00 (5.00–10.00) | 9.00 (6.00–11.00) | 7 | 1.5 | – |");
        assertThat(md).contains("| topic per table | 1 | 3 | 6,250 (5,000–10,000) | 1,250 (1,000–2,000) | "
                + "16.00 (10.00–20.00) | 17.00 (11.00–21.00) | 7 | 1.5 | 2.0 (1.0–3.0) |");
        // per repeat: 10/20 = 0.5 each time
        assertThat(md).contains("| 1 | 0.50 |");
    }

    @Test
    void withoutAHeldBytesGaugeTheColumnIsLeftOut() {
        List<String> md = new TopicLayoutFigures(List.of(run(Layout.ONE_TOPIC, 2, 0, 4.0, -1),
                run(Layout.TOPIC_PER_TABLE, 2, 0, 5.0, -1))).markdown(1000, 1);

        assertThat(md).noneMatch(line -> line.contains("peak held MiB"));
        assertThat(md).contains("| 2 | 0.80 |");
    }

    @Test
    void noRunsIsSaid() {
        assertThat(new TopicLayoutFigures(List.of()).markdown(1000, 3)).contains("(not measured)");
    }

    private static TopicLayoutRun run(Layout layout, int p, int repeat, double seconds, long held) {
        return new TopicLayoutRun(layout, p, repeat, 100_000, 20_000, 7, seconds, seconds + 1, held, 1.5, "1 1 1");
    }
}
