package io.lockstep.bench;

import io.lockstep.bench.LayoutTopics.Layout;

/**
 * One bounded {@code lockstep run} of the topic-layout benchmark ({@link TopicLayoutBenchmark}).
 *
 * @param layout          the layout read
 * @param parallelism     {@code --parallelism}
 * @param repeat          counts from 0
 * @param rows            rows the run committed (its summary line), equal to the rows written and to the rows the
 *                        emulator received (checked)
 * @param transactions    source transactions the run committed (its summary line), equal to those written (checked)
 * @param targetCommits   StarRocks transactions the run committed (its summary line)
 * @param seconds         from the first record the Kafka source emitted to the command's return (every row
 *                        committed), s
 * @param commandSeconds  the whole command: option checks, pre-flight, MiniCluster start, job, s
 * @param peakHeldBytes   the largest value of the rebuild's held-bytes gauge seen (sampled every
 *                        {@value TopicLayoutBenchmark#GAUGE_POLL_MS} ms), or -1 where there is none (the one-topic
 *                        layout has no rebuild)
 * @param cpuSeconds      the process CPU over the command (the job, the Kafka broker and the emulator share this JVM)
 * @param loadAverage     the 1/5/15-min load average when the run ended
 */
record TopicLayoutRun(Layout layout, int parallelism, int repeat, long rows, long transactions, long targetCommits,
                      double seconds, double commandSeconds, long peakHeldBytes, double cpuSeconds,
                      String loadAverage) {

    double rowsPerSecond() {
        return rows / seconds;
    }

    double transactionsPerSecond() {
        return transactions / seconds;
    }
}
