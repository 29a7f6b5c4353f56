package io.lockstep.sqljar;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQL connector jar of this module's Flink line, used the way a user uses it (docs/sql.md#the-connector-jar): a
 * child JVM whose classpath is only Flink's table artifacts with their dependencies and the jar (no Lockstep module,
 * no test class) runs a Table API program (src/test/resources/io/lockstep/sqljar/RunSqlScript.java, compiled by the
 * Java launcher) that creates {@code 'connector' = 'starrocks'} tables and inserts rows into them, each table with
 * another load format and codec (gzip, bzip2, lz4_frame, zstd), one exactly-once; this JVM's emulator holds the rows,
 * and the child's class-load log shows the connector, Jackson and zstd-jni (with its JNI library) came from the jar,
 * lz4-java and Commons Compress from Flink's classpath.
 * And the jar holds nothing a Flink distribution has, with its libraries relocated under {@code io.lockstep.shaded}.
 *
 * <p>Run by Maven in {@code integration-test} (after {@code package} built the jar), with the system properties
 * {@code lockstep.sqljar.jar} (the jar), {@code lockstep.sqljar.classpath} (a file holding the Flink classpath) and
 * {@code lockstep.sqljar.opens} (JVM options; the {@code --add-opens} among them go to the child) and
 * {@code lockstep.sqljar.flinkLine} (the Flink line of the module, e.g. {@code 1.20}).
 */
class SqlConnectorJarIT {
    private static final long CHILD_TIMEOUT_SECONDS = 180;

    @RegisterExtension
    static final StarRocksEmulatorExtension SR = new StarRocksEmulatorExtension(StarRocksEmulator.builder().ddl(
            "CREATE DATABASE sj;"
                    + "CREATE TABLE sj.json_gzip (id BIGINT NOT NULL, name STRING, amount DECIMAL(10,2), ts DATETIME)"
                    + " PRIMARY KEY (id);"
                    + "CREATE TABLE sj.csv_bzip2 (id BIGINT NOT NULL, name STRING, amount DECIMAL(10,2), ts DATETIME)"
                    + " PRIMARY KEY (id);"
                    + "CREATE TABLE sj.json_lz4 (id BIGINT NOT NULL, name STRING, amount DECIMAL(10,2), ts DATETIME)"
                    + " PRIMARY KEY (id);"
                    + "CREATE TABLE sj.csv_zstd (id BIGINT NOT NULL, name STRING, amount DECIMAL(10,2), ts DATETIME)"
                    + " PRIMARY KEY (id);"));

    /** A sink table of the script: its name (also the emulator table's), sink.semantic, its format and codec. */
    private record SinkTable(String name, String semantic, String formatOptions) {
    }

    private static final List<SinkTable> TABLES = List.of(
            new SinkTable("json_gzip", "at-least-once", "'sink.properties.compression' = 'gzip'"),
            new SinkTable("csv_bzip2", "at-least-once", "'sink.properties.format' = 'csv', "
                    + "'sink.properties.compression' = 'bzip2'"),
            new SinkTable("json_lz4", "exactly-once", "'sink.properties.compression' = 'lz4_frame'"),
            new SinkTable("csv_zstd", "at-least-once", "'sink.properties.format' = 'csv', "
                    + "'sink.properties.compression' = 'zstd'"));

    /** A system property Maven's test execution sets (see the module's parent pom). */
    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new IllegalStateException("system property " + name + " is not set: run this test through "
                    + "`mvn verify` on its module (it needs the jar the package phase builds)");
        }
        return value;
    }

    private static Path jar() {
        return Path.of(property("lockstep.sqljar.jar"));
    }

    /** The child's classpath: Flink's table artifacts with their dependencies, then the connector jar. */
    private static List<String> childClasspath() throws IOException {
        List<String> entries = new ArrayList<>(Arrays.asList(Files.readString(
                Path.of(property("lockstep.sqljar.classpath"))).strip().split(File.pathSeparator)));
        entries.add(jar().toString());
        return entries;
    }

    private static String script() {
        StringBuilder sql = new StringBuilder("CREATE TEMPORARY VIEW src AS SELECT * FROM (VALUES "
                + "(CAST(1 AS BIGINT), 'plain', CAST(12.50 AS DECIMAL(10, 2)), "
                + "CAST('2024-02-29 12:34:56.789' AS TIMESTAMP(3))), "
                + "(CAST(2 AS BIGINT), 'h\u00e9llo, \"q\"', CAST(-0.01 AS DECIMAL(10, 2)), "
                + "CAST('1999-12-31 23:59:59' AS TIMESTAMP(3))), "
                + "(CAST(3 AS BIGINT), CAST(NULL AS STRING), CAST(NULL AS DECIMAL(10, 2)), "
                + "CAST(NULL AS TIMESTAMP(3)))) AS t(id, name, amount, ts);\n");
        for (SinkTable table : TABLES) {
            sql.append("CREATE TABLE ").append(table.name()).append(" (id BIGINT, name STRING, amount DECIMAL(10, 2), "
                    + "ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'starrocks', 'load-url' = '")
                    .append(SR.emulator().feUrl().replace("http://", "")).append("', 'database-name' = 'sj', "
                    + "'table-name' = '").append(table.name()).append("', 'username' = 'root', 'password' = '', "
                    + "'sink.semantic' = '").append(table.semantic()).append("', 'sink.label-prefix' = 'sj_")
                    .append(table.name()).append("', 'sink.buffer-flush.interval-ms' = '300', "
                    + "'sink.retry.interval-ms' = '100', ").append(table.formatOptions()).append(");\n");
        }
        for (SinkTable table : TABLES) {
            sql.append("INSERT INTO ").append(table.name()).append(" SELECT * FROM src;\n");
        }
        return sql.toString();
    }

    @Test
    void aTableApiProgramOnFlinksClasspathLoadsEveryCodecThroughTheJar(@TempDir Path dir) throws Exception {
        List<String> classpath = childClasspath();
        assertThat(classpath).as("the child's classpath: jars only, Lockstep's classes from the connector jar only")
                .allSatisfy(entry -> assertThat(entry).endsWith(".jar"))
                .filteredOn(entry -> Path.of(entry).getFileName().toString().startsWith("lockstep-"))
                .containsExactly(jar().toString());
        String line = property("lockstep.sqljar.flinkLine");
        assertThat(classpath).as("Flink's artifacts on the child's classpath, all of Flink %s", line)
                .filteredOn(entry -> Path.of(entry).getFileName().toString().matches("flink-(?!shaded-).*"))
                .isNotEmpty()
                .allSatisfy(entry -> assertThat(Path.of(entry).getFileName().toString()).contains("-" + line + "."));
        Path program = dir.resolve("RunSqlScript.java");
        try (InputStream source = SqlConnectorJarIT.class.getResourceAsStream("RunSqlScript.java")) {
            Files.copy(source, program);
        }
        Path sql = Files.writeString(dir.resolve("load.sql"), script());
        Path classLoads = dir.resolve("class-loads.log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx768m",
                "-XX:TieredStopAtLevel=1", "-Xlog:class+load=info:file=" + classLoads,
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
        Arrays.stream(property("lockstep.sqljar.opens").trim().split("\\s+"))
                .filter(option -> option.startsWith("--add-opens")).forEach(command::add);
        command.addAll(List.of("-cp", String.join(File.pathSeparator, classpath), program.toString(),
                sql.toString(), "parallelism.default=1", "execution.checkpointing.interval=500 ms"));
        Path output = dir.resolve("child.log");

        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean ended = child.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!ended) {
            child.destroyForcibly().waitFor();
        }

        assertThat(ended && child.exitValue() == 0).as("the child JVM ran the program to its end; its output:%n%s",
                Files.readString(output, StandardCharsets.UTF_8)).isTrue();
        for (SinkTable table : TABLES) {
            List<List<String>> rows = SR.emulator().query("SELECT id, name, amount, ts FROM sj." + table.name()
                    + " ORDER BY id").rows().stream()
                    .map(row -> row.stream().map(String::valueOf).collect(Collectors.toList()))
                    .collect(Collectors.toList());
            assertThat(rows).as("rows of sj.%s", table.name()).containsExactly(
                    List.of("1", "plain", "12.50", "2024-02-29T12:34:56.789"),
                    List.of("2", "h\u00e9llo, \"q\"", "-0.01", "1999-12-31T23:59:59"),
                    List.of("3", "null", "null", "null"));
        }
        Map<String, String> sources = classSources(classLoads);
        String jarName = jar().getFileName().toString();
        assertThat(sources).as("where the child loaded the connector and each codec from")
                .hasEntrySatisfying("io.lockstep.flink.table.StarRocksTableSinkFactory",
                        source -> assertThat(source).endsWith(jarName))
                .hasEntrySatisfying("io.lockstep.shaded.com.fasterxml.jackson.databind.ObjectMapper",
                        source -> assertThat(source).endsWith(jarName))
                // initialised when a zstd stream opens: its JNI library bound under the class names it was built for
                .hasEntrySatisfying("com.github.luben.zstd.util.Native", source -> assertThat(source).endsWith(jarName))
                .hasEntrySatisfying("net.jpountz.lz4.LZ4FrameOutputStream",
                        source -> assertThat(source).contains("lz4-java-"))
                .hasEntrySatisfying("org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream",
                        source -> assertThat(source).contains("commons-compress-"));
        assertThat(sources.keySet()).as("HttpClient classes the child loaded: relocated ones")
                .filteredOn(name -> name.contains(".hc.client5.")).isNotEmpty()
                .allSatisfy(name -> assertThat(name).startsWith("io.lockstep.shaded.org.apache.hc."));
    }

    /** Class name to the place it was loaded from, as {@code -Xlog:class+load=info} wrote them. */
    private static Map<String, String> classSources(Path log) throws IOException {
        Map<String, String> sources = new HashMap<>();
        Pattern line = Pattern.compile("\\] (\\S+) source: (.+)$");
        for (String entry : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            Matcher m = line.matcher(entry);
            if (m.find()) {
                sources.put(m.group(1), m.group(2).strip());
            }
        }
        return sources;
    }

    @Test
    void theJarHoldsLockstepAndRelocatedLibrariesOnlyWithZstdJniUnrelocated() throws IOException {
        List<String> classes = new ArrayList<>();
        List<String> factories;
        try (JarFile jar = new JarFile(jar().toFile())) {
            for (JarEntry entry : Collections.list(jar.entries())) {
                if (entry.getName().endsWith(".class")) {
                    classes.add(entry.getName().replaceFirst("^META-INF/versions/\\d+/", ""));
                }
            }
            try (InputStream services = jar.getInputStream(
                    jar.getEntry("META-INF/services/org.apache.flink.table.factories.Factory"))) {
                factories = new String(services.readAllBytes(), StandardCharsets.UTF_8).lines()
                        .map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
            }
        }

        assertThat(classes).as("classes of the jar: Lockstep's (with the StarRocks connector's API names), relocated "
                        + "libraries, and zstd-jni, whose JNI binding needs its own names")
                .allSatisfy(name -> assertThat(name).matches("(io/lockstep/|com/starrocks/|com/github/luben/zstd/).*"))
                .contains("io/lockstep/core/format/BodyCompression.class",
                        "io/lockstep/shaded/org/apache/hc/client5/http/impl/classic/CloseableHttpClient.class",
                        "io/lockstep/shaded/com/fasterxml/jackson/databind/ObjectMapper.class",
                        "com/github/luben/zstd/ZstdOutputStream.class")
                .noneMatch(name -> name.startsWith("io/lockstep/emulator/"));
        assertThat(factories).as("the table factories Flink finds through META-INF/services")
                .containsExactlyInAnyOrder("io.lockstep.flink.table.StarRocksTableSinkFactory",
                        "io.lockstep.flink.table.DorisTableSinkFactory");
    }
}
