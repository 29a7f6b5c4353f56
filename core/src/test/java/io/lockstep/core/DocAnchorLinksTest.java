package io.lockstep.core;

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
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every {@code <file>.md#<anchor>} cited in the repository's code comments and docs names a heading that exists.
 *
 * <p>Scans every {@code *.java} and {@code *.md} file under the repository root (found by walking up from the
 * module's directory to the one holding {@code docs/} and the reactor {@code pom.xml}; {@code target/} and hidden
 * directories are skipped). A cited path is resolved against the citing file's directory first (a Markdown link
 * such as {@code ../docs/<file>.md#<anchor>} or, inside docs/, {@code <file>.md#<anchor>}) and then against the
 * repository root (a code comment's {@code docs/<file>.md#<anchor>}); a citation inside a web address is another
 * repository's and is skipped. The anchor must be a heading slug of that file, made by GitHub's rules: the heading's text (link targets and inline code ticks removed) lower-cased, every character other
 * than a letter, a digit, a space, {@code -} or {@code _} dropped, each space turned into {@code -}; a repeated slug
 * gets {@code -1}, {@code -2}, ... Headings inside fenced code blocks do not count.
 */
class DocAnchorLinksTest {

    /** A cited Markdown file and anchor: {@code (../)*(<dir>/)*<name>.md#<anchor>}. */
    private static final Pattern CITATION =
            Pattern.compile("((?:\\.\\./)*(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-]+\\.md)#([A-Za-z0-9_-]+)");

    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern INLINE_LINK = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");

    @Test
    void everyCitedMarkdownAnchorNamesAnExistingHeading() throws IOException {
        Path root = RepositoryRoot.find();
        List<Path> files = sourceAndDocFiles(root);
        Map<Path, Set<String>> anchorsByFile = new HashMap<>();
        List<String> broken = new ArrayList<>();
        int citations = 0;
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                if (!lines.get(i).contains(".md#")) {
                    continue;
                }
                Matcher m = CITATION.matcher(lines.get(i));
                while (m.find()) {
                    if (insideUrl(lines.get(i), m.start())) {
                        continue;
                    }
                    citations++;
                    String cited = m.group(1);
                    String anchor = m.group(2);
                    Path target = resolve(root, file, cited);
                    String where = root.relativize(file) + ":" + (i + 1) + ": " + cited + "#" + anchor;
                    if (target == null) {
                        broken.add(where + " (no such file)");
                        continue;
                    }
                    Set<String> anchors = anchorsByFile.computeIfAbsent(target, DocAnchorLinksTest::anchorsOf);
                    if (!anchors.contains(anchor)) {
                        broken.add(where + " (no such heading in " + root.relativize(target) + ")");
                    }
                }
            }
        }
        assertThat(citations).as("citations found under %s", root).isGreaterThan(0);
        assertThat(broken)
                .as("%d of %d cited Markdown anchors name no heading:%n  %s%n", broken.size(), citations,
                        String.join(System.lineSeparator() + "  ", broken))
                .isEmpty();
    }

    @Test
    void slugsFollowGitHubRules() {
        Set<String> anchors =
                anchorsFromLines(
                        List.of(
                                "# Title",
                                "## How the client decides (`core/client`)",
                                "### Security — Flink (`io.lockstep.flink.security`)",
                                "## Query port: information_schema, SHOW statements and result types",
                                "## See [the protocol](protocol.md) notes_here",
                                "```",
                                "## not a heading inside a fence",
                                "```",
                                "## Title",
                                "## Title"));
        assertThat(anchors)
                .containsExactlyInAnyOrder(
                        "title",
                        "how-the-client-decides-coreclient",
                        "security--flink-iolockstepflinksecurity",
                        "query-port-information_schema-show-statements-and-result-types",
                        "see-the-protocol-notes_here",
                        "title-1",
                        "title-2");
    }

    private static List<Path> sourceAndDocFiles(Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        Files.walkFileTree(
                root,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                        String name = dir.equals(root) ? "" : dir.getFileName().toString();
                        boolean skipped = name.equals("target") || name.equals("node_modules") || name.startsWith(".");
                        return skipped ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        String name = file.getFileName().toString();
                        if (attrs.isRegularFile() && (name.endsWith(".java") || name.endsWith(".md"))) {
                            files.add(file);
                        }
                        return FileVisitResult.CONTINUE;
                    }
                });
        files.sort(null);
        return files;
    }

    /** Whether the citation starting at {@code start} is part of a web address (another repository's page). */
    private static boolean insideUrl(String line, int start) {
        int tokenStart = start;
        while (tokenStart > 0 && !Character.isWhitespace(line.charAt(tokenStart - 1))) {
            tokenStart--;
        }
        return line.substring(tokenStart, start).contains("://");
    }

    private static Path resolve(Path root, Path citingFile, String cited) {
        Path besideCiter = citingFile.getParent().resolve(cited).normalize();
        if (Files.isRegularFile(besideCiter)) {
            return besideCiter;
        }
        Path fromRoot = root.resolve(cited).normalize();
        return Files.isRegularFile(fromRoot) ? fromRoot : null;
    }

    private static Set<String> anchorsOf(Path markdown) {
        try {
            return anchorsFromLines(Files.readAllLines(markdown, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<String> anchorsFromLines(List<String> lines) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean inFence = false;
        for (String line : lines) {
            String trimmed = line.stripLeading();
            if (trimmed.startsWith("```") || trimmed.startsWith("~~~")) {
                inFence = !inFence;
                continue;
            }
            if (inFence) {
                continue;
            }
            Matcher html = HTML_ANCHOR.matcher(line);
            while (html.find()) {
                anchors.add(html.group(1));
            }
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String slug = slug(heading.group(2));
                int count = seen.merge(slug, 1, Integer::sum);
                anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
            }
        }
        return anchors;
    }

    private static String slug(String headingText) {
        String text = INLINE_LINK.matcher(headingText).replaceAll("$1").toLowerCase(java.util.Locale.ROOT);
        StringBuilder slug = new StringBuilder(text.length());
        text.codePoints()
                .forEach(
                        c -> {
                            if (c == ' ') {
                                slug.append('-');
                            } else if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                                slug.appendCodePoint(c);
                            }
                        });
        return slug.toString();
    }
}
