package io.lockstep.app.chaos;

import com.starrocks.connector.flink.table.sink.StarRocksSinkOptions;
import io.lockstep.flink.sink.ExactlyOnceSinkFunction;
import io.lockstep.flink.sink.MultiTableSinkFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionSnapshotContext;

/**
 * The production sinks with the chaos suite's task-failure hooks ({@link ChaosControl}): an exception in
 * {@code invoke} at an armed record count, in {@code snapshotState} after the sink's own work (multi-table: after
 * its commit; exactly-once: after its prepare), and in {@code notifyCheckpointComplete} before the sink's commit.
 * Test-only subclasses, so production code carries no test hooks.
 */
final class FaultingSinks {
    private FaultingSinks() {
    }

    /** Throws the injected task failure. */
    static IllegalStateException injected(ChaosControl control, String where) {
        control.taskFailuresThrown.incrementAndGet();
        return new IllegalStateException("chaos: injected task failure " + where);
    }

    static void beforeInvoke(ChaosControl control) {
        long left = control.failAtRecord.get();
        if (left > 0 && control.failAtRecord.compareAndSet(left, left - 1) && left == 1) {
            throw injected(control, "in invoke");
        }
    }

    static void afterSnapshot(ChaosControl control, long checkpointId) {
        if (control.failInSnapshot.compareAndSet(true, false)) {
            throw injected(control, "in snapshotState of checkpoint " + checkpointId);
        }
    }

    static void beforeCommit(ChaosControl control, long checkpointId) {
        if (control.failAfterCheckpoint.get()) {
            Runnable hook = control.beforeCommitHook;
            if (control.failAfterCheckpoint.compareAndSet(true, false)) {
                if (hook != null) {
                    hook.run();
                }
                throw injected(control, "after checkpoint " + checkpointId + " completed, before the commit");
            }
        }
    }

    /** The multi-table sink with the hooks; its "commit" after a checkpoint is the next timer commit. */
    static final class MultiTable<T> extends MultiTableSinkFunction<T> implements CheckpointListener {
        private static final long serialVersionUID = 1L;
        private final String run;

        MultiTable(StarRocksSinkOptions options, String run) {
            super(options);
            this.run = run;
        }

        @Override
        public void invoke(T value, Context context) throws Exception {
            beforeInvoke(ChaosControl.of(run));
            super.invoke(value, context);
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) throws Exception {
            super.snapshotState(context);
            afterSnapshot(ChaosControl.of(run), context.getCheckpointId());
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            beforeCommit(ChaosControl.of(run), checkpointId);
        }
    }

    /** The exactly-once sink with the hooks. */
    static final class ExactlyOnce<T> extends ExactlyOnceSinkFunction<T> {
        private static final long serialVersionUID = 1L;
        private final String run;

        ExactlyOnce(StarRocksSinkOptions options, String run) {
            super(options);
            this.run = run;
        }

        @Override
        public void invoke(T value, Context context) throws Exception {
            beforeInvoke(ChaosControl.of(run));
            super.invoke(value, context);
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) throws Exception {
            super.snapshotState(context);
            afterSnapshot(ChaosControl.of(run), context.getCheckpointId());
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            beforeCommit(ChaosControl.of(run), checkpointId);
            super.notifyCheckpointComplete(checkpointId);
        }
    }
}
