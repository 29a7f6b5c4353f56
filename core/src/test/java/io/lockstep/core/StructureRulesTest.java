package io.lockstep.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository's structural rules (docs/architecture.md), checked over the main source trees of every module:
 * <ul>
 *   <li>the StarRocks-compatible API ({@code com.starrocks...}) is a facade over the internal model, so no main file
 *       under {@code io/lockstep} imports {@code com.starrocks}; the one exception is {@value #FACADE_TYPES}, the
 *       facade row's Flink type information, which is part of the facade but keeps its package because checkpoints
 *       name {@code io.lockstep.flink.types.DefaultStarRocksRowDataSerializer$Snapshot}
 *       (docs/architecture.md#rows-and-control-marks);</li>
 *   <li>one concept per class: no main source file of core, flink, flink-2.2 or app (Flink 1.20 and 2.2 lines) is
 *       longer than {@value #MAX_LINES} lines.</li>
 * </ul>
 * The repository root is the nearest directory at or above this module holding both {@code docs/} and
 * {@code pom.xml}; {@code target/} directories are never read.
 */
class StructureRulesTest {

    /** The facade's own package under {@code io/lockstep} (its class names are written into checkpoints). */
    static final String FACADE_TYPES = "io/lockstep/flink/types/";

    /** The longest main source file the size rule allows, in lines. */
    static final int MAX_LINES = 400;

    /** Modules whose main code the size rule covers (the emulator, e2e workloads and bench are tools, not product). */
    private static final List<String> SIZED_MODULES = List.of("core", "flink", "flink-2.2", "app", "app-flink-2.2");

    @Test
    void noInternalFileImportsTheStarRocksFacade() throws IOException {
        List<String> offenders = new ArrayList<>();
        List<Path> files = mainJavaFiles(RepositoryRoot.find());
        for (Path file : files) {
            String path = file.toString().replace('\\', '/');
            if (!path.contains("/io/lockstep/") || path.contains("/" + FACADE_TYPES)) {
                continue;
            }
            try (Stream<String> lines = Files.lines(file)) {
                if (lines.anyMatch(line -> line.startsWith("import com.starrocks.")
                        || line.startsWith("import static com.starrocks."))) {
                    offenders.add(RepositoryRoot.find().relativize(file).toString());
                }
            }
        }
        assertThat(files).as("main Java files found").hasSizeGreaterThan(100);
        assertThat(offenders).as("files under io/lockstep importing com.starrocks").isEmpty();
    }

    @Test
    void noMainClassOfTheProductModulesIsLongerThanTheLimit() throws IOException {
        Path root = RepositoryRoot.find();
        List<String> tooLong = new ArrayList<>();
        int checked = 0;
        for (Path file : mainJavaFiles(root)) {
            String module = root.relativize(file).getName(0).toString();
            if (!SIZED_MODULES.contains(module)) {
                continue;
            }
            checked++;
            long lines;
            try (Stream<String> all = Files.lines(file)) {
                lines = all.count();
            }
            if (lines > MAX_LINES) {
                tooLong.add(root.relativize(file) + " (" + lines + " lines)");
            }
        }
        assertThat(checked).as("main files of %s checked", SIZED_MODULES).isGreaterThan(100);
        assertThat(tooLong).as("main files over %d lines", MAX_LINES).isEmpty();
    }

    /** Every {@code *.java} under a module's {@code src/main/java*} directory (e.g. {@code java-1.20}). */
    private static List<Path> mainJavaFiles(Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> {
                        String rel = root.relativize(p).toString().replace('\\', '/');
                        return !rel.contains("/target/") && !rel.startsWith(".") && rel.matches("(.+/)?src/main/java[^/]*/.*");
                    })
                    .forEach(files::add);
        }
        return files;
    }
}
