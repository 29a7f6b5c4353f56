package io.lockstep.app.testing;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code lockstep} (its {@code LockstepMain}) in a JVM of its own, on this test's class path, so a test can kill
 * it ({@code kill -9}) or signal it (Ctrl-C) as an operator would. Its stdout and stderr go to files in
 * {@code workDir}.
 */
public final class JobProcess implements AutoCloseable {
    private final Process process;
    private final Path out;
    private final Path err;

    private JobProcess(Process process, Path out, Path err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /**
     * @param workDir the process's working directory; its output files go there too
     * @param args the command line, e.g. {@code run --kafka-bootstrap ...}
     * @return the started process
     * @throws IOException when the JVM cannot be started
     */
    public static JobProcess start(Path workDir, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.add("-Xmx512m");
        for (String jvmArg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (jvmArg.startsWith("--add-opens")) {
                command.add(jvmArg);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("io.lockstep.app.cli.LockstepMain");
        command.addAll(List.of(args));
        Path out = Files.createTempFile(workDir, "job", ".out");
        Path err = Files.createTempFile(workDir, "job", ".err");
        Process process = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        return new JobProcess(process, out, err);
    }

    /** Sends a signal, e.g. {@code INT} (Ctrl-C) or {@code KILL}. */
    public void signal(String name) throws IOException, InterruptedException {
        int code = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start().waitFor();
        if (code != 0) {
            throw new IllegalStateException("kill -" + name + " " + process.pid() + " exited " + code);
        }
    }

    /** @return whether the JVM still runs */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * @param seconds longest wait
     * @return the exit code
     * @throws IllegalStateException when it did not exit in time (it is then killed)
     */
    public int awaitExit(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("lockstep did not exit within " + seconds + " s; stdout:\n" + out()
                    + "\nstderr:\n" + err());
        }
        return process.exitValue();
    }

    /** @return what it printed on stdout so far */
    public String out() {
        return read(out);
    }

    /** @return what it printed on stderr so far */
    public String err() {
        return read(err);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
    }

    /** Kills the JVM if it still runs. */
    @Override
    public void close() {
        process.destroyForcibly();
    }
}
