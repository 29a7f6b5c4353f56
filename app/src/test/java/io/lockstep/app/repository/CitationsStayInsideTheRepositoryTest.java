package io.lockstep.app.repository;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The repository is readable on its own: no source, document, build file or script cites a document that is not in it.
 * Comments cite the repository's docs ({@code docs/protocol.md}, {@code docs/architecture.md}, ...) or public sources
 * (StarRocks/Doris docs, source file paths, GitHub issues named with their repository, e.g.
 * {@code apache/flink-cdc#4170}).
 *
 * <p>Lives in {@code app}, the module that depends on all others, and scans the whole reactor from its root. Each
 * finding names {@code file:line} and the rule it breaks. Runs in well under a second.
 */
class CitationsStayInsideTheRepositoryTest {

    /** A pattern that marks a citation of something outside the repository, and why it is refused. */
    record Rule(String why, Pattern pattern) {
    }

    // The patterns are assembled from pieces so that this file does not match itself.
    private static final String SECTION = "\u00a7";

    static final List<Rule> RULES = List.of(
            new Rule("section-number citation (cite a docs/ file and its heading, or a public source)",
                    Pattern.compile("(?<!RFC \\d{1,5} )" + SECTION + "\\s*\\d")),
            new Rule("the out-of-tree protocol reference",
                    Pattern.compile("(?i)\\b(?:doris|protocol|stream[- ]load|starrocks)\\s+reference\\b(?!\\s+(?:manual|docs?)\\b)"
                            + "|\\breference\\s+" + SECTION + "|\\breference(?:'s)? table tag")),
            new Rule("the out-of-tree design or style notes",
                    Pattern.compile("\\b(?:DESIGN|STYLE)(?:\\.md)?\\s*" + SECTION + "|\\b(?:DESIGN|STYLE)\\.md\\b")),
            new Rule("a path outside the repository",
                    Pattern.compile("\\.\\./" + "shared\\b|/work/" + "|\\bshared/(?:reference|seeds|samples)\\b")),
            new Rule("an out-of-tree seed or reference document",
                    Pattern.compile("(?i)starrocks-flink-multi-table-transactions|starrocks-stream-load-transaction-2pc"
                            + "|doris-load-transactions|(?:doris|starrocks)-stream-load-protocol|cdc-input-formats"
                            + "|\\bseed\\s+(?:\\{@code|`)|\\bthe seeds\\b|\\bseed documents?\\b")),
            new Rule("a tag of the out-of-tree reference (name the public source file instead)",
                    Pattern.compile("\\b(?:FE|BE|DOC|SDK|FLK|FC|RT|SR)-(?:[A-Z]{2,5}|2PC)\\b")),
            new Rule("a tracker issue number (name the behaviour or the docs/ file; public issues carry their repo)",
                    Pattern.compile("(?i)(?<![\\w/.#-])issues?\\s*#?\\d+\\b")));

    /** Japanese or Chinese text in a comment: section titles of out-of-tree documents. */
    static final Rule CJK_IN_COMMENT = new Rule("non-English section title in a comment",
            Pattern.compile("^\\s*(?:\\*|//|/\\*\\*?|<!--).*[\\u3040-\\u30ff\\u4e00-\\u9fff]"));

    /** Text copied verbatim from a public page (the StarRocks guide's example, Japanese edition): pinned by a test. */
    private static final Set<String> VERBATIM_COPIES = Set.of(
            "flink/src/test/java/io/lockstep/flink/docexample/WriteMultipleTablesWithTransaction.java",
            "flink/src/test/java/io/lockstep/flink/docexample/publicevent/WriteMultipleTablesWithTransaction.java",
            "flink/src/test/resources/doc-example/WriteMultipleTablesWithTransaction.java.txt");

    private static final Set<String> SKIPPED_DIRECTORIES = Set.of("target", ".git", "node_modules", ".idea");

    private static final Set<String> SCANNED_EXTENSIONS = Set.of(
            "java", "md", "xml", "sh", "py", "properties", "sql", "txt", "yml", "yaml");

    @Test
    void noFileCitesADocumentOutsideTheRepository() throws IOException {
        Path root = reactorRoot();
        List<String> findings = new ArrayList<>();
        List<Path> files = scannedFiles(root);
        for (Path file : files) {
            findings.addAll(findingsIn(root, file));
        }
        assertThat(files).as("files scanned under %s", root).hasSizeGreaterThan(100);
        assertThat(findings).as("citations of documents outside the repository (file:line: rule: text)").isEmpty();
    }

    @Test
    void theRulesCatchTheOutOfTreeCitationsAndKeepPublicOnes() {
        assertThat(matches(" * The engine (DESIGN.md " + SECTION + "3) freezes")).isNotEmpty();
        assertThat(matches(" * the label rule (reference " + SECTION + "4.3)")).isNotEmpty();
        assertThat(matches(" * a PRECOMMITTED load (Doris reference " + SECTION + "2)")).isNotEmpty();
        assertThat(matches(" * see ../" + "shared/reference")).isNotEmpty();
        assertThat(matches(" * seed {@code starrocks-flink-multi-table-transactions}")).isNotEmpty();
        assertThat(matches(" * the redirect (FE-RBA {@code redirectTo})")).isNotEmpty();
        assertThat(matches(" * The bad-input catalogue of issue 6: one row per class")).isNotEmpty();
        assertThat(matches(" * Issue 4's sustained load")).isNotEmpty();
        assertThat(CJK_IN_COMMENT.pattern().matcher(" * (seed, \"\u5b8c\u5168\u306a\u4f8b\")").find()).isTrue();

        assertThat(matches(" * a real capture (issue, apache/flink-cdc#4170) shows")).isEmpty();
        assertThat(matches(" * Maxwell's commit rows (zendesk/maxwell#88)")).isEmpty();
        assertThat(matches(" * see https://github.com/StarRocks/starrocks-connector-for-apache-flink/issues/310")).isEmpty();
        assertThat(matches(" * docs/protocol.md#labels-and-label-state, StarRocks {@code FeNameFormat.java}")).isEmpty();
        assertThat(matches(" * Seed: {@code -Dlockstep.chaos.seed=N}, else random; naming the seed")).isEmpty();
        assertThat(matches("        AtomicReference<Throwable> error = new AtomicReference<>();")).isEmpty();
        assertThat(matches(" * a reference to another column")).isEmpty();
        assertThat(CJK_IN_COMMENT.pattern().matcher("        String label = labels.exactlyOnceLabel(\"\u8868 orders\", 1);")
                .find()).isFalse();
    }

    private static List<String> matches(String line) {
        List<String> hit = new ArrayList<>();
        for (Rule rule : RULES) {
            if (rule.pattern().matcher(line).find()) {
                hit.add(rule.why());
            }
        }
        return hit;
    }

    private static List<String> findingsIn(Path root, Path file) {
        String relative = root.relativize(file).toString().replace('\\', '/');
        if (relative.equals(selfPath())) {
            return List.of();
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + relative, e);
        }
        boolean verbatim = VERBATIM_COPIES.contains(relative);
        List<String> findings = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            for (String why : matches(line)) {
                findings.add(relative + ":" + (i + 1) + ": " + why + ": " + line.strip());
            }
            if (!verbatim && CJK_IN_COMMENT.pattern().matcher(line).find()) {
                findings.add(relative + ":" + (i + 1) + ": " + CJK_IN_COMMENT.why() + ": " + line.strip());
            }
        }
        return findings;
    }

    private static String selfPath() {
        return "app/src/test/java/" + CitationsStayInsideTheRepositoryTest.class.getName().replace('.', '/') + ".java";
    }

    private static List<Path> scannedFiles(Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return SKIPPED_DIRECTORIES.contains(dir.getFileName().toString()) && !dir.equals(root)
                        ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (attrs.isRegularFile() && isScanned(file)) {
                    files.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        files.sort(null);
        return files;
    }

    private static boolean isScanned(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        if (dot > 0) {
            return SCANNED_EXTENSIONS.contains(name.substring(dot + 1));
        }
        try {
            byte[] head = new byte[2];
            try (var in = Files.newInputStream(file)) {
                return in.read(head) == 2 && head[0] == '#' && head[1] == '!';
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** The reactor root: the nearest ancestor of the working directory that holds {@code core} and {@code app}. */
    private static Path reactorRoot() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("core")) && Files.isDirectory(p.resolve("app"))
                    && Files.isRegularFile(p.resolve("pom.xml"))) {
                return p;
            }
        }
        throw new IllegalStateException("no reactor root (a directory with core/, app/ and pom.xml) above " + dir);
    }
}
