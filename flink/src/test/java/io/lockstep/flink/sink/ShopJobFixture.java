package io.lockstep.flink.sink;

import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The per-test set-up of the sink ITs on the {@code shop} tables ({@link AtLeastOnceSinkIT}, {@link MultiTableSinkIT},
 * {@link MultiTableAtomicityIT}, {@link SinkFailureIT}), registered in an instance field: a fresh emulator with
 * {@link ShopSinkJobs#DDL}, the {@link Gates} the test's sources wait at, and the job it started. After each test it
 * opens every gate (so no source task hangs), cancels the job if it still runs, then stops the emulator.
 *
 * <p>Used by the one JUnit thread running the test.
 */
final class ShopJobFixture implements BeforeEachCallback, AfterEachCallback {
    private final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(
            StarRocksEmulator.builder().ddl(ShopSinkJobs.DDL));
    private final List<String> gates = new ArrayList<>();
    private JobClient job;

    /** The running emulator. */
    StarRocksEmulator emulator() {
        return sr.emulator();
    }

    /** A new gate named after {@code what}, opened at the latest after the test. */
    String newGate(String what) {
        return gate(Gates.newName(what));
    }

    /** Opens gate {@code name} at the latest after the test; returns it. */
    String gate(String name) {
        gates.add(name);
        return name;
    }

    /** Starts {@code env}'s job as {@code name}; it is cancelled after the test if it still runs. */
    JobClient start(StreamExecutionEnvironment env, String name) throws Exception {
        job = env.executeAsync(name);
        return job;
    }

    /** The job the test started last. */
    JobClient job() {
        return job;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        sr.beforeEach(context);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        try {
            gates.forEach(Gates::open);
            if (job != null && !job.getJobStatus().get().isGloballyTerminalState()) {
                job.cancel().get();
            }
        } finally {
            sr.afterEach(context);
        }
    }
}
