package io.lockstep.bench;

import io.lockstep.core.metrics.MetricNames;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * One run of the order workload in a JVM of its own, started by {@link ForkedCost} (the emulator stays in the
 * parent, so this process's CPU is the client's alone): runs ONE Flink MiniCluster job and prints its figures as
 * one line {@code COST-RESULT key=value ...} (see {@link ForkedCostRun#parse}) on standard output.
 *
 * <p>Arguments: {@code <client> <parallelism> <source txns> <FE url> <job id> [<profile phase>]}, client one of
 * {@code discarding}, {@code at-least-once}, {@code exactly-once}. With a profile phase the job runs under a
 * {@link HotSpots} recording ({@code bench/target/jfr/<phase>.jfr}) and the child also prints its summary, one
 * {@code COST-HOTSPOT} line per entry (see {@link #HOTSPOT_PREFIX}); such a run is for the profile, not the figures. CPU is the process CPU time
 * ({@code com.sun.management.OperatingSystemMXBean#getProcessCpuTime}): whole run (JVM start included, as the
 * official connector's side-by-side runs counted it) and steady state, between the readings taken when the source
 * had emitted 20 % and 80 % of its rows (polled every {@value #POLL_MS} ms). Exits 1 with one line on stderr if the
 * job fails.
 */
public final class CostChild {
    static final String PREFIX = "COST-RESULT ";
    /**
     * Prefix of the profile summary lines: {@code COST-HOTSPOT samples <n> <file>}, then
     * {@code COST-HOTSPOT self|ours <count> <method>} per entry, in rank order.
     */
    static final String HOTSPOT_PREFIX = "COST-HOTSPOT ";
    private static final long POLL_MS = 5;

    private CostChild() {
    }

    /** Runs the job and prints the result line; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        if (args.length != 5 && args.length != 6) {
            System.err.println("usage: CostChild <client> <parallelism> <source txns> <FE url> <job id> "
                    + "[<profile phase>]");
            System.exit(2);
        }
        String client = ForkedCostRun.clientName(args[0]);
        int parallelism = Integer.parseInt(args[1]);
        long txns = Long.parseLong(args[2]);
        OrderTxnSource.reset();
        BenchMetricReporter.reset();
        StreamExecutionEnvironment env = FlinkEndToEnd.ordersJob(client, args[3], parallelism, txns, args[4]);
        long expectedRows = txns / OrderTxnSource.PARTITIONS * OrderTxnSource.PARTITIONS * (OrderTxnSource.ITEMS + 1);
        SteadyMarks marks = new SteadyMarks(expectedRows);
        Thread watcher = new Thread(marks, "cost-steady-marks");
        watcher.setDaemon(true);
        watcher.start();
        HotSpots hotSpots = args.length == 6 ? new HotSpots(args[5], Path.of("bench/target/jfr")) : null;
        try {
            env.execute(args[0] + " p" + parallelism);
        } catch (Exception e) {
            System.err.println("cost run " + args[0] + " p" + parallelism + " failed: " + e);
            e.printStackTrace();
            System.exit(1);
        }
        long end = System.nanoTime();
        long cpuNs = processCpuNs();
        watcher.interrupt();
        watcher.join();
        if (hotSpots != null) {
            hotSpots.close();
            HotSpots.Summary summary = hotSpots.summary();
            System.out.println(HOTSPOT_PREFIX + "samples " + summary.samples() + " " + summary.file());
            summary.selfTop().forEach((method, n) -> System.out.println(HOTSPOT_PREFIX + "self " + n + " " + method));
            summary.oursTop().forEach((method, n) -> System.out.println(HOTSPOT_PREFIX + "ours " + n + " " + method));
        }
        double seconds = (end - OrderTxnSource.FIRST_EMIT_NANOS.get()) / 1e9;
        System.out.println(PREFIX + String.format(Locale.ROOT, "rows=%d bytes=%d txns=%d seconds=%.4f loads=%d "
                        + "cpuNs=%d steadyCpuNs=%d steadyRows=%d steadySeconds=%.4f jitMs=%d",
                OrderTxnSource.ROWS.get(), OrderTxnSource.BYTES.get(), OrderTxnSource.TXNS.get(), seconds,
                BenchMetricReporter.sum(MetricNames.LOADS), cpuNs, marks.cpuNs(), marks.rows(), marks.seconds(),
                ManagementFactory.getCompilationMXBean().getTotalCompilationTime()));
        System.out.flush();
        System.exit(0);
    }

    static long processCpuNs() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Reads process CPU when the source's progress crosses 20 % and 80 % of the expected rows. */
    private static final class SteadyMarks implements Runnable {
        private final long expectedRows;
        /** Written by the watcher thread before it ends; read after join() (happens-before via join). */
        private long startCpu = -1;
        private long startRows;
        private long startNanos;
        private long endCpu = -1;
        private long endRows;
        private long endNanos;

        SteadyMarks(long expectedRows) {
            this.expectedRows = expectedRows;
        }

        @Override
        public void run() {
            try {
                while (endCpu < 0) {
                    long rows = OrderTxnSource.PROGRESS_ROWS.get();
                    if (startCpu < 0 && rows >= expectedRows / 5) {
                        startCpu = processCpuNs();
                        startRows = rows;
                        startNanos = System.nanoTime();
                    } else if (startCpu >= 0 && rows >= expectedRows * 4 / 5) {
                        endCpu = processCpuNs();
                        endRows = rows;
                        endNanos = System.nanoTime();
                    }
                    Thread.sleep(POLL_MS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the job ended; marks not reached stay unset (-1)
            }
        }

        long cpuNs() {
            return endCpu < 0 ? -1 : endCpu - startCpu;
        }

        long rows() {
            return endCpu < 0 ? 0 : endRows - startRows;
        }

        double seconds() {
            return endCpu < 0 ? 0 : (endNanos - startNanos) / 1e9;
        }
    }
}
