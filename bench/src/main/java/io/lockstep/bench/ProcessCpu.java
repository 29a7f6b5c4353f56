package io.lockstep.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;

/**
 * CPU time of this process, split into the emulator's server threads ({@code lockstep-fe*}, {@code lockstep-be*},
 * Jetty pools) and the rest (the client side: engine, task and I/O threads, Flink).
 *
 * <p>The process figure comes from {@code com.sun.management.OperatingSystemMXBean#getProcessCpuTime}, the server
 * share from {@link ThreadMXBean#getThreadCpuTime} of the live server threads (pool threads live for the whole
 * run, so none is lost). All values in nanoseconds.
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
        long[] ids = THREADS.getAllThreadIds();
        ThreadInfo[] infos = THREADS.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            ThreadInfo info = infos[i];
            if (info != null && info.getThreadName().startsWith("lockstep-fe")
                    || info != null && info.getThreadName().startsWith("lockstep-be")) {
                long t = THREADS.getThreadCpuTime(ids[i]);
                if (t > 0) {
                    server += t;
                }
            }
        }
        long gcMs = 0;
        for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcMs += Math.max(0, gc.getCollectionTime());
        }
        long jitMs = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
        return new Sample(process, server, gcMs, jitMs);
    }

    /**
     * @param processNs whole process CPU time
     * @param serverNs  CPU time of the emulator's server threads alive now
     * @param gcMs      time the collectors report as spent collecting (elapsed, not CPU), ms
     * @param jitMs     time the JIT compiler threads report as spent compiling, ms (CPU of the process, on no Java
     *                  thread: a run that still compiles pays it)
     */
    record Sample(long processNs, long serverNs, long gcMs, long jitMs) {
        /** CPU spent between {@code start} and this sample. */
        Sample minus(Sample start) {
            return new Sample(processNs - start.processNs, Math.max(0, serverNs - start.serverNs), gcMs - start.gcMs,
                    jitMs - start.jitMs);
        }

        /** Process CPU outside the server threads. */
        long clientNs() {
            return Math.max(0, processNs - serverNs);
        }
    }
}
