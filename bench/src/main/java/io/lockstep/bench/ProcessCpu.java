package io.lockstep.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time of this process, split into the emulator's server threads ({@code lockstep-fe*}, {@code lockstep-be*},
 * Jetty pools) and the rest (the client side: engine, task and I/O threads, Flink).
 *
 * <p>The process figure comes from {@code com.sun.management.OperatingSystemMXBean#getProcessCpuTime}, the server
 * share from {@link ThreadMXBean#getThreadCpuTime} of the live server threads, thread by thread: a server thread
 * that ends between two samples (Jetty retires pool threads idle for a minute) drops out of the difference instead of
 * taking its whole lifetime's CPU from the server share, which had credited it to the client and made runs of the
 * same job differ by seconds. What such a thread spent between the samples is lost to the client share; idle for a
 * minute, it spent next to nothing. All values in nanoseconds.
 */
final class ProcessCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ProcessCpu() {
    }

    /** A reading now. */
    static Sample sample() {
        long process = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        long server = 0;
        Map<Long, Long> serverThreads = new HashMap<>();
        long[] ids = THREADS.getAllThreadIds();
        ThreadInfo[] infos = THREADS.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            ThreadInfo info = infos[i];
            if (info != null && info.getThreadName().startsWith("lockstep-fe")
                    || info != null && info.getThreadName().startsWith("lockstep-be")) {
                long t = THREADS.getThreadCpuTime(ids[i]);
                if (t > 0) {
                    server += t;
                    serverThreads.put(ids[i], t);
                }
            }
        }
        long gcMs = 0;
        for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcMs += Math.max(0, gc.getCollectionTime());
        }
        long jitMs = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
        return new Sample(process, server, gcMs, jitMs, serverThreads);
    }

    /**
     * @param processNs whole process CPU time
     * @param serverNs  CPU time of the emulator's server threads alive now
     * @param gcMs      time the collectors report as spent collecting (elapsed, not CPU), ms
     * @param jitMs     time the JIT compiler threads report as spent compiling, ms (CPU of the process, on no Java
     *                  thread: a run that still compiles pays it)
     * @param serverThreadNs CPU time of each server thread alive at the reading, by thread id; empty in a difference
     */
    record Sample(long processNs, long serverNs, long gcMs, long jitMs, Map<Long, Long> serverThreadNs) {
        /** A difference (or a figure made up in a test): no per-thread readings. */
        Sample(long processNs, long serverNs, long gcMs, long jitMs) {
            this(processNs, serverNs, gcMs, jitMs, Map.of());
        }

        /**
         * CPU spent between {@code start} and this sample; the server share sums each server thread alive now less
         * what it had at {@code start} (0 for a thread started since).
         */
        Sample minus(Sample start) {
            long server = 0;
            for (Map.Entry<Long, Long> thread : serverThreadNs.entrySet()) {
                server += Math.max(0, thread.getValue() - start.serverThreadNs.getOrDefault(thread.getKey(), 0L));
            }
            return new Sample(processNs - start.processNs, server, gcMs - start.gcMs, jitMs - start.jitMs);
        }

        /** Process CPU outside the server threads. */
        long clientNs() {
            return Math.max(0, processNs - serverNs);
        }
    }
}
