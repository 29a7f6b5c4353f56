package io.lockstep.emulator.be;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import javax.annotation.concurrent.GuardedBy;
import javax.annotation.concurrent.ThreadSafe;

/**
 * Error logs of loads that filtered rows, served at {@code GET /api/_load_error_log?file=<name>} and named by
 * {@code ErrorURL} (docs/protocol.md#data-formats-and-filtered-rows: {@code error_log_<hex>_<hex>}). Keeps the most
 * recent {@value #MAX_FILES}.
 */
@ThreadSafe
public final class ErrorLogStore {
    static final int MAX_FILES = 1000;

    @GuardedBy("this")
    private final Map<String, String> files = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > MAX_FILES;
        }
    };

    /**
     * Stores one log.
     *
     * @param lines one line per rejected row ({@code Error: <reason>. Row: <record>})
     * @return the file name to put in the {@code file} query parameter
     */
    public String write(List<String> lines) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String name = "error_log_" + Long.toHexString(random.nextLong() & Long.MAX_VALUE) + "_"
                + Long.toHexString(random.nextLong() & Long.MAX_VALUE);
        String text = String.join("\n", lines) + (lines.isEmpty() ? "" : "\n");
        synchronized (this) {
            files.put(name, text);
        }
        return name;
    }

    /** The text of a stored log; empty when unknown or already evicted. */
    public synchronized Optional<String> read(String name) {
        return Optional.ofNullable(files.get(name));
    }
}
