package io.lockstep.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time of the threads that do a sink's loading work in this JVM: the thread that writes rows into the engine (the
 * task thread's part: row checks, CSV encoding, buffering) and the multi-table engine's own threads, its manager
 * ({@code lockstep-manager-*}: freezing, commits) and I/O threads ({@code lockstep-load-io-*}: building and
 * compressing bodies, HTTP). Unlike {@link ProcessCpu#clientNs} it leaves out the garbage collector and the JIT
 * compiler (and the emulator, whose parsing and decompression run on its own server threads). Read with
 * {@link ThreadMXBean#getThreadCpuTime}, thread by thread: a thread started after the first reading counts from 0.
 * Readings must be taken while the engine is open (its threads end when it closes). Nanoseconds.
 */
final class LoadingThreadsCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final String[] ENGINE_THREAD_PREFIXES = {"lockstep-manager-", "lockstep-load-io-"};

    private final Map<Long, Long> start;

    private LoadingThreadsCpu(Map<Long, Long> start) {
        this.start = start;
    }

    /** A first reading of the calling thread (the writer) and the engine's threads alive now. */
    static LoadingThreadsCpu start() {
        return new LoadingThreadsCpu(reading());
    }

    /** CPU the writer thread (the caller, as at {@link #start}) and the engine's threads spent since the start, ns. */
    long elapsedNs() {
        long total = 0;
        for (Map.Entry<Long, Long> thread : reading().entrySet()) {
            total += Math.max(0, thread.getValue() - start.getOrDefault(thread.getKey(), 0L));
        }
        return total;
    }

    private static Map<Long, Long> reading() {
        Map<Long, Long> cpu = new HashMap<>();
        cpu.put(Thread.currentThread().getId(), THREADS.getCurrentThreadCpuTime());
        long[] ids = THREADS.getAllThreadIds();
        ThreadInfo[] infos = THREADS.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            if (infos[i] != null && isEngineThread(infos[i].getThreadName())) {
                long t = THREADS.getThreadCpuTime(ids[i]);
                if (t > 0) {
                    cpu.put(ids[i], t);
                }
            }
        }
        return cpu;
    }

    private static boolean isEngineThread(String name) {
        for (String prefix : ENGINE_THREAD_PREFIXES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
