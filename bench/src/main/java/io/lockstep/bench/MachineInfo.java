package io.lockstep.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** What the figures were measured on: cores, load average, JVM; the machine may be shared. */
final class MachineInfo {
    private MachineInfo() {
    }

    /** {@code /proc/loadavg}'s first three fields, or the JVM's 1-minute figure where there is no /proc. */
    static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException e) {
            return String.format(Locale.ROOT, "%.2f",
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }

    static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    static String jvm() {
        return System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + ", -Xmx "
                + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MiB, GC "
                + String.join("/", ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(java.lang.management.GarbageCollectorMXBean::getName).toList());
    }

    static String os() {
        return System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch");
    }

    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            // fall through
        }
        return "unknown";
    }
}
