package io.lockstep.app.job;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Turns a job failure into the one line a user needs. Flink wraps the cause in several layers
 * ({@code JobExecutionException}, "Recovery is suppressed by ...", {@code CompletionException}); Lockstep's own
 * exceptions already name what was wrong and where (topic, partition, offset; table; label), so the outermost
 * of those is chosen, else the root cause.
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
        Throwable root = failure;
        for (Throwable t = failure; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            if (t.getClass().getName().startsWith("io.lockstep.") && t.getMessage() != null) {
                return t.getClass().getSimpleName() + ": " + t.getMessage();
            }
            root = t;
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
