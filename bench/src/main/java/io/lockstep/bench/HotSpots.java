package io.lockstep.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JFR profile of one phase of the run, recorded in-process ({@code jdk.ExecutionSample} every 10 ms), dumped to
 * {@code bench/target/jfr/<phase>.jfr} (open it with {@code jfr print --events jdk.ExecutionSample} or JDK Mission
 * Control) and summarized: the methods on top of the sampled stacks (self time) and, per sample, the topmost frame in
 * Lockstep's own code ({@code io.lockstep} and {@code com.starrocks}: where our code spends, itself or in callees).
 */
final class HotSpots implements AutoCloseable {
    private final String phase;
    private final Path file;
    private final Recording recording = new Recording();
    private Summary summary;

    /** Starts recording. */
    HotSpots(String phase, Path dir) throws IOException {
        this.phase = phase;
        Files.createDirectories(dir);
        this.file = dir.resolve(phase + ".jfr");
        recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
        recording.enable("jdk.ObjectAllocationSample").with("throttle", "200/s");
        recording.setToDisk(true);
        recording.start();
    }

    /** Stops, dumps and summarizes. */
    @Override
    public void close() throws IOException {
        if (summary != null) {
            return;
        }
        recording.stop();
        recording.dump(file);
        recording.close();
        Map<String, Integer> self = new HashMap<>();
        Map<String, Integer> ours = new HashMap<>();
        int samples = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample")) {
                continue;
            }
            RecordedStackTrace stack = event.getStackTrace();
            if (stack == null || stack.getFrames().isEmpty()) {
                continue;
            }
            samples++;
            List<RecordedFrame> frames = stack.getFrames();
            self.merge(name(frames.get(0).getMethod()), 1, Integer::sum);
            for (RecordedFrame frame : frames) {
                String type = frame.getMethod().getType().getName();
                if ((type.startsWith("io.lockstep.") || type.startsWith("com.starrocks."))
                        && !type.startsWith("io.lockstep.bench.")) {
                    ours.merge(name(frame.getMethod()), 1, Integer::sum);
                    break;
                }
            }
        }
        summary = new Summary(phase, file, samples, top(self, 10), top(ours, 10));
    }

    /** The summary; only after {@link #close()}. */
    Summary summary() {
        return summary;
    }

    private static String name(RecordedMethod method) {
        String type = method.getType().getName();
        return type.substring(type.lastIndexOf('.') + 1) + "." + method.getName();
    }

    private static Map<String, Integer> top(Map<String, Integer> counts, int n) {
        Map<String, Integer> top = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(n)
                .forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }

    /**
     * @param samples   execution samples taken
     * @param selfTop   methods on top of the stack, with sample counts
     * @param oursTop   topmost Lockstep frame of each sample, with counts
     */
    record Summary(String phase, Path file, int samples, Map<String, Integer> selfTop, Map<String, Integer> oursTop) {
        /**
         * The summary a child JVM printed as {@code samples <n> <file>} and {@code self|ours <count> <method>} lines
         * (see {@link CostChild#HOTSPOT_PREFIX}), prefix removed.
         *
         * @throws IllegalArgumentException naming the phase if the samples line is missing or a line is malformed
         */
        static Summary parse(String phase, List<String> lines) {
            Integer samples = null;
            Path file = null;
            Map<String, Integer> self = new LinkedHashMap<>();
            Map<String, Integer> ours = new LinkedHashMap<>();
            for (String line : lines) {
                String[] parts = line.split(" ", 3);
                if (parts.length != 3) {
                    throw new IllegalArgumentException(phase + ": malformed profile line '" + line + "'");
                }
                switch (parts[0]) {
                    case "samples" -> {
                        samples = Integer.parseInt(parts[1]);
                        file = Path.of(parts[2]);
                    }
                    case "self" -> self.put(parts[2], Integer.parseInt(parts[1]));
                    case "ours" -> ours.put(parts[2], Integer.parseInt(parts[1]));
                    default -> throw new IllegalArgumentException(phase + ": malformed profile line '" + line + "'");
                }
            }
            if (samples == null) {
                throw new IllegalArgumentException(phase + ": the child printed no profile summary");
            }
            return new Summary(phase, file, samples, self, ours);
        }
    }
}
