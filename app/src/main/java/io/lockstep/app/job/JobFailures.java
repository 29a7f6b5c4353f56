package io.lockstep.app.job;

import io.lockstep.core.client.TransactionException;
import io.lockstep.flink.sink.NonRecoverableSinkFailure;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Turns a job failure into the one line a user needs. Flink wraps the cause in several layers
 * ({@code JobExecutionException}, "Recovery is suppressed by ...", {@code CompletionException}); Lockstep's own
 * exceptions already name what was wrong and where (topic, partition, offset; table; label), so the outermost
 * of those is chosen, else the root cause. A target's refusal ({@link TransactionException}) is chosen over
 * the engine's wrappers around it.
 */
public final class JobFailures {

    private JobFailures() {
    }

    /**
     * @param failure what the job (or its result future) threw
     * @return {@code SimpleClassName: message} of the most telling cause
     */
    public static String describe(Throwable failure) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable t = failure; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            if (t instanceof TransactionException && t.getMessage() != null) {
                // the server's verdict names the operation, label, database and table; the engine's wrappers
                // around it only repeat it
                return t.getClass().getSimpleName() + ": " + t.getMessage();
            }
        }
        seen.clear();
        Throwable root = failure;
        for (Throwable t = failure; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            if (t.getClass().getName().startsWith("io.lockstep.") && t.getMessage() != null
                    && !(t instanceof NonRecoverableSinkFailure)) { // the wrapper: describe what it wraps
                return t.getClass().getSimpleName() + ": " + t.getMessage();
            }
            root = t;
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    /**
     * A short trace for a WARN log: each cause's {@code SimpleClassName: message} on its own line, outermost
     * first, at most {@code maxCauses} of them (no stack frames: the messages already say where).
     *
     * @param failure what the job threw
     * @param maxCauses most causes listed (&gt; 0)
     * @return the lines joined with a newline and an indent
     */
    public static String causeChain(Throwable failure, int maxCauses) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        StringBuilder chain = new StringBuilder();
        int listed = 0;
        for (Throwable t = failure; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            if (listed == maxCauses) {
                chain.append("\n  ...");
                break;
            }
            chain.append("\n  caused by ").append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
            listed++;
        }
        return chain.toString();
    }
}
