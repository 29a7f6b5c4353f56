package io.lockstep.e2e.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A Flink 1.20 session cluster of separate JVM processes, started from Flink's own entry points as the distribution's
 * scripts start them ({@code StandaloneSessionClusterEntrypoint} for the JobManager, {@code TaskManagerRunner} for each
 * TaskManager, {@code --configDir} with a {@code config.yaml}), on the classpath of the Flink Maven artifacts this
 * build resolved (the test JVM's classpath without this project's classes and without Kafka, Debezium and the JDBC
 * drivers: the job jar brings its own, as on a real cluster). Checkpoints and savepoints go to local directories.
 *
 * <p>Owned by one test thread. Processes are killed on {@link #close()}; {@link #killTaskManager} sends SIGKILL.
 */
public final class FlinkProcessCluster implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Class path entries that are not part of a Flink distribution's lib/ folder. */
    private static final List<String> NOT_FLINK = List.of("/target/classes", "/target/test-classes",
            "/org/apache/kafka/", "/io/debezium/", "/io/zonky/", "/org/postgresql/", "/com/mysql/", "/io/lockstep/",
            "/flink-connector-kafka/", "/org/junit/", "/org/assertj/", "/com/h2database/", "/org/eclipse/jetty/",
            "/org/testcontainers/");

    /** What Flink 1.20 needs on Java 17 (the distribution's config.yaml sets the same in env.java.opts.all). */
    private static final List<String> JAVA_17_OPENS = List.of("--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.time=ALL-UNNAMED", "--add-opens=java.base/java.text=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.sql/java.sql=ALL-UNNAMED");

    private final Path configDir;
    private final int restPort;
    private final Path logDir;
    private final List<Process> taskManagers = new ArrayList<>();
    /** Resource ids of {@link #taskManagers}, same order. */
    private final List<String> taskManagerNames = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();
    private Process jobManager;
    private int nextTaskManager;

    private FlinkProcessCluster(Path workDir, Path checkpoints, Path savepoints) throws IOException {
        this.configDir = Files.createDirectories(workDir.resolve("conf"));
        this.logDir = Files.createDirectories(workDir.resolve("log"));
        this.restPort = freePort();
        int rpcPort = freePort();
        List<String> config = List.of(
                "jobmanager.rpc.address: localhost",
                "jobmanager.rpc.port: " + rpcPort,
                "jobmanager.bind-host: localhost",
                "jobmanager.memory.process.size: 800m",
                "rest.address: localhost",
                "rest.bind-address: localhost",
                "rest.port: " + restPort,
                "taskmanager.host: localhost",
                "taskmanager.bind-host: localhost",
                "taskmanager.numberOfTaskSlots: 2",
                // What bin/taskmanager.sh computes and passes as dynamic properties (BashJavaUtils)
                "taskmanager.cpu.cores: 2",
                "taskmanager.memory.framework.heap.size: 128m",
                "taskmanager.memory.task.heap.size: 256m",
                "taskmanager.memory.framework.off-heap.size: 128m",
                "taskmanager.memory.task.off-heap.size: 0m",
                "taskmanager.memory.jvm-metaspace.size: 256m",
                "taskmanager.memory.jvm-overhead.min: 64m",
                "taskmanager.memory.jvm-overhead.max: 64m",
                "taskmanager.memory.managed.size: 32m",
                "taskmanager.memory.network.min: 32m",
                "taskmanager.memory.network.max: 32m",
                "blob.server.port: 0",
                "taskmanager.rpc.port: 0",
                "taskmanager.data.port: 0",
                // one slot per TaskManager at parallelism 2: killing either TaskManager fails running tasks
                "cluster.evenly-spread-out-slots: true",
                "heartbeat.interval: 1000",
                "heartbeat.timeout: 6000",
                "state.backend.type: hashmap",
                "execution.checkpointing.dir: " + checkpoints.toUri(),
                "execution.checkpointing.savepoint-dir: " + savepoints.toUri(),
                "execution.checkpointing.externalized-checkpoint-retention: RETAIN_ON_CANCELLATION",
                "classloader.check-leaked-classloader: false");
        Files.write(configDir.resolve("config.yaml"), config);
    }

    /**
     * Starts a JobManager and {@code taskManagers} TaskManagers and waits until all TaskManagers registered.
     *
     * @param workDir this cluster's config and log folder
     * @param checkpoints the checkpoint directory (kept across clusters)
     * @param savepoints the savepoint directory
     */
    public static FlinkProcessCluster start(Path workDir, Path checkpoints, Path savepoints, int taskManagers)
            throws IOException, InterruptedException {
        FlinkProcessCluster cluster = new FlinkProcessCluster(workDir, checkpoints, savepoints);
        try {
            cluster.jobManager = cluster.launch("jobmanager",
                    "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint", "-Xmx400m");
            for (int i = 0; i < taskManagers; i++) {
                cluster.startTaskManager();
            }
            cluster.awaitTaskManagers(taskManagers);
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** Starts one more TaskManager process; its resource id is {@code taskmanager-<n>}. */
    public void startTaskManager() throws IOException {
        String name = "taskmanager-" + nextTaskManager++;
        taskManagerNames.add(name);
        taskManagers.add(launch(name, "org.apache.flink.runtime.taskexecutor.TaskManagerRunner", "-Xmx500m",
                "-Dtaskmanager.resource-id=" + name));
        // -XX:MaxDirectMemorySize: framework + task off-heap + network, as the script sets it
    }

    /**
     * Kills a TaskManager with SIGKILL (no shutdown hooks run) and waits for the process to end.
     *
     * @param index the index among the live TaskManagers
     * @return the killed TaskManager's resource id
     */
    public String killTaskManager(int index) throws InterruptedException {
        String name = taskManagerNames.remove(index);
        Process victim = taskManagers.remove(index);
        victim.destroyForcibly();
        victim.waitFor();
        return name;
    }

    private Process launch(String name, String mainClass, String heap, String... dynamicProperties)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(heap);
        command.add("-XX:MaxDirectMemorySize=256m");
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=info");
        command.addAll(JAVA_17_OPENS);
        command.add("-cp");
        command.add(flinkClassPath());
        command.add(mainClass);
        command.add("--configDir");
        command.add(configDir.toString());
        command.addAll(List.of(dynamicProperties));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.redirectErrorStream(true);
        builder.redirectOutput(logDir.resolve(name + ".log").toFile());
        return builder.start();
    }

    /** @return the test JVM's class path without the entries a Flink distribution does not have */
    static String flinkClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> NOT_FLINK.stream().noneMatch(entry::contains))
                .collect(Collectors.joining(File.pathSeparator));
    }

    private void awaitTaskManagers(int count) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(300).toNanos(); // generous: a loaded 2-core machine
        while (System.nanoTime() < deadline) {
            if (!jobManager.isAlive()) {
                throw new IllegalStateException("the JobManager exited with " + jobManager.exitValue()
                        + "; its log: " + logDir.resolve("jobmanager.log"));
            }
            JsonNode overview = tryGet("/taskmanagers");
            if (overview != null && overview.path("taskmanagers").size() >= count) {
                return;
            }
            Thread.sleep(300);
        }
        throw new IllegalStateException(count + " TaskManagers did not register within 300 s; logs in " + logDir);
    }

    /**
     * Runs {@code flink run <args>} as the distribution's {@code bin/flink} does: Flink's {@code CliFrontend} in a
     * client JVM of its own, with {@code FLINK_CONF_DIR} pointing at this cluster's configuration.
     *
     * @param args the arguments after {@code flink}, e.g. {@code run -d -c Main job.jar ...}
     * @return what the client printed
     * @throws IllegalStateException when the client exits with an error
     */
    public String flink(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx300m");
        command.addAll(JAVA_17_OPENS);
        command.add("-cp");
        command.add(flinkClassPath());
        command.add("org.apache.flink.client.cli.CliFrontend");
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("FLINK_CONF_DIR", configDir.toString());
        builder.redirectErrorStream(true);
        Path log = logDir.resolve("client-" + System.nanoTime() + ".log");
        builder.redirectOutput(log.toFile());
        Process client = builder.start();
        int code = client.waitFor();
        String output = Files.readString(log);
        if (code != 0) {
            throw new IllegalStateException("flink " + String.join(" ", args) + " exited with " + code + ": " + output);
        }
        return output;
    }

    /** @return the REST answer of a POST with a JSON body, or {@code null} when it does not answer 200/202 */
    public JsonNode post(String path, String body) throws InterruptedException, IOException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(restUrl() + path))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200 && response.statusCode() != 202) {
            throw new IllegalStateException("POST " + path + " answered " + response.statusCode() + ": "
                    + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** @return the REST answer of a GET, or {@code null} when the endpoint does not answer 200 */
    public JsonNode tryGet(String path) throws InterruptedException {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(restUrl() + path))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? JSON.readTree(response.body()) : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** @return {@code http://localhost:<rest port>} */
    public String restUrl() {
        return "http://localhost:" + restPort;
    }

    /** @return the REST port */
    public int restPort() {
        return restPort;
    }

    /** @return the folder of the processes' logs */
    public Path logDir() {
        return logDir;
    }

    @Override
    public void close() {
        for (Process process : taskManagers) {
            process.destroyForcibly();
        }
        if (jobManager != null) {
            jobManager.destroyForcibly();
        }
        for (Process process : taskManagers) {
            waitQuietly(process);
        }
        if (jobManager != null) {
            waitQuietly(jobManager);
        }
        taskManagers.clear();
    }

    private static void waitQuietly(Process process) {
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
