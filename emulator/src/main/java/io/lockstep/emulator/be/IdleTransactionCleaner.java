package io.lockstep.emulator.be;

import java.time.Clock;
import javax.annotation.concurrent.ThreadSafe;

/**
 * The BE's cleaner for {@code idle_transaction_timeout} (docs/protocol.md#timeouts-limits-and-concurrency, BE
 * {@code TransactionMgr} {@code _clean_stream_context}): a context with no load activity for that long is aborted with
 * "transaction is aborted by idle timeout N seconds." A context with a request in flight is skipped, as the BE's
 * {@code try_lock} skips it. Run by the emulator's timer tick. Thread-safe (stateless).
 */
@ThreadSafe
public final class IdleTransactionCleaner {
    private final Backend be;

    public IdleTransactionCleaner(Backend backend) {
        this.be = backend;
    }

    /** Aborts every idle-expired context at the current clock time. */
    public void clean() {
        Clock clock = be.clock();
        for (LoadContext ctx : be.contexts().all()) {
            if (!ctx.idleExpired(clock.millis())) {
                continue;
            }
            TableChannel channel = ctx.multiTable() ? null : ctx.singleChannel();
            if (channel != null && !channel.tryEnter()) {
                continue;
            }
            try {
                String message = "transaction is aborted by idle timeout " + ctx.idleTimeoutMs() / 1000 + " seconds.";
                ctx.markAborted(message);
                be.transactions().abortIfRunning(ctx.txnId(), message);
                be.contexts().remove(ctx.label(), ctx.txnId());
            } finally {
                if (channel != null) {
                    channel.exit();
                }
            }
        }
    }
}
