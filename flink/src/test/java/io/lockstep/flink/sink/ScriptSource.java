package io.lockstep.flink.sink;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import org.apache.flink.streaming.api.functions.source.SourceFunction;

/**
 * A non-parallel test source that plays a script: batches of rows, each emitted under the checkpoint lock (so a
 * checkpoint falls between batches, never inside one), and gates where it waits for the test. A gate either holds
 * the checkpoint lock while waiting (a source transaction is open, so no checkpoint may come) or releases it.
 * Build with {@link #script()}.
 */
@SuppressWarnings("deprecation") // SourceFunction: the simplest way to control emission and checkpoints in a test
final class ScriptSource implements SourceFunction<DefaultStarRocksRowData> {
    private static final long serialVersionUID = 1L;

    /** One step: rows to emit, then optionally a gate to wait at (holding the lock or not). */
    private record Step(ArrayList<TxnRow> rows, String gate, boolean holdLock, ArrayList<TxnRow> after)
            implements Serializable {
    }

    private final ArrayList<Step> steps;
    /** Written by cancel() (any thread), read by the source thread. */
    private volatile boolean running = true;

    private ScriptSource(ArrayList<Step> steps) {
        this.steps = steps;
    }

    static Builder script() {
        return new Builder();
    }

    @Override
    public void run(SourceContext<DefaultStarRocksRowData> ctx) throws Exception {
        for (Step step : steps) {
            if (!running) {
                return;
            }
            if (step.holdLock()) {
                synchronized (ctx.getCheckpointLock()) {
                    emit(ctx, step.rows());
                    pass(step.gate());
                    emit(ctx, step.after());
                }
            } else {
                synchronized (ctx.getCheckpointLock()) {
                    emit(ctx, step.rows());
                }
                if (step.gate() != null) {
                    pass(step.gate());
                }
            }
        }
    }

    /**
     * Waits at a gate. Cancelled meanwhile, it throws instead of returning: a legacy source that returns from run()
     * can race with its cancellation and end the input, and the sinks would then finish() (commit) instead of
     * being cancelled.
     */
    private void pass(String gate) throws InterruptedException {
        if (!Gates.pass(gate, () -> running)) {
            throw new CancellationException("script source cancelled at gate " + gate);
        }
    }

    private static void emit(SourceContext<DefaultStarRocksRowData> ctx, List<TxnRow> rows) {
        for (TxnRow row : rows) {
            ctx.collect(row.toRowData());
        }
    }

    @Override
    public void cancel() {
        running = false;
    }

    /** Collects the script. */
    static final class Builder {
        private final ArrayList<Step> steps = new ArrayList<>();

        /** Emits the rows together under the checkpoint lock. */
        Builder emit(List<TxnRow> rows) {
            steps.add(new Step(new ArrayList<>(rows), null, false, new ArrayList<>()));
            return this;
        }

        /**
         * Emits {@code before}, waits at {@code gate}, then emits {@code after}, holding the checkpoint lock
         * throughout: no checkpoint can fall while the source transactions opened in {@code before} are open, nor
         * between the gate and the rows that close them.
         */
        Builder emitAroundGateHoldingLock(List<TxnRow> before, String gate, List<TxnRow> after) {
            steps.add(new Step(new ArrayList<>(before), gate, true, new ArrayList<>(after)));
            return this;
        }

        /** Waits at {@code gate}; checkpoints go on meanwhile. */
        Builder await(String gate) {
            steps.add(new Step(new ArrayList<>(), gate, false, new ArrayList<>()));
            return this;
        }

        ScriptSource build() {
            return new ScriptSource(new ArrayList<>(steps));
        }
    }
}
