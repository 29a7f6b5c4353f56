package io.lockstep.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.SimpleCounter;
import org.junit.jupiter.api.Test;

/** Totals by metric name over subtasks, kept across a task's removal (a restart). */
class JobMetricsTest {

    @Test
    void countersOfTheSameNameAddUpAndSurviveTheirRemoval() {
        JobMetrics metrics = new JobMetrics();
        SimpleCounter first = new SimpleCounter();
        SimpleCounter second = new SimpleCounter();
        metrics.added("commits", first);
        metrics.added("commits", second);
        metrics.added("loadedRows", new SimpleCounter());
        first.inc(3);
        second.inc(4);
        assertThat(metrics.counter("commits")).isEqualTo(7);

        metrics.removed("commits", first); // the task failed; its replacement starts from 0
        SimpleCounter restarted = new SimpleCounter();
        metrics.added("commits", restarted);
        restarted.inc(2);
        assertThat(metrics.counter("commits")).isEqualTo(9);
        metrics.removed("commits", first);
        assertThat(metrics.counter("commits")).as("a second removal counts nothing").isEqualTo(9);
        assertThat(metrics.counter("unknown")).isZero();
    }

    @Test
    void gaugesReportTheirLargestValue() {
        JobMetrics metrics = new JobMetrics();
        assertThat(metrics.gaugeMax("numRestarts")).isEqualTo(-1);
        metrics.added("numRestarts", (Gauge<Long>) () -> 1L);
        metrics.added("numRestarts", (Gauge<Long>) () -> 2L);
        metrics.added("status", (Gauge<String>) () -> "RUNNING");
        assertThat(metrics.gaugeMax("numRestarts")).isEqualTo(2);
        assertThat(metrics.gaugeMax("status")).as("not a number").isEqualTo(-1);
    }
}
