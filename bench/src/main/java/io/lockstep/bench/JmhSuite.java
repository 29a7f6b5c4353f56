package io.lockstep.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the JMH benchmarks of {@code io.lockstep.bench.jmh} with short iterations (one fork, 1 warmup and 3
 * measurement iterations of 1 s) for the report. For steadier figures run JMH directly with its defaults
 * ({@code ./bench/run jmh}, see bench/README.md).
 */
final class JmhSuite {
    private JmhSuite() {
    }

    /** One benchmark's score. */
    record Score(String benchmark, String params, double score, double error, String unit) {
    }

    static List<Score> run() throws RunnerException {
        Options options = new OptionsBuilder()
                .include("io\\.lockstep\\.bench\\.jmh\\..*")
                .forks(1)
                .warmupIterations(1).warmupTime(TimeValue.seconds(1))
                .measurementIterations(3).measurementTime(TimeValue.seconds(1))
                .jvmArgs("-Xmx1g", "-Djava.awt.headless=true")
                .build();
        Collection<RunResult> results = new Runner(options).run();
        List<Score> scores = new ArrayList<>();
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            name = name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1);
            StringBuilder params = new StringBuilder();
            for (String key : r.getParams().getParamsKeys()) {
                params.append(params.length() == 0 ? "" : ", ").append(key).append('=')
                        .append(r.getParams().getParam(key));
            }
            scores.add(new Score(name, params.toString(), r.getPrimaryResult().getScore(),
                    r.getPrimaryResult().getScoreError(), r.getPrimaryResult().getScoreUnit()));
        }
        return scores;
    }
}
