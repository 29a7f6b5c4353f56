package io.lockstep.app.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.transforms.RegexRouter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector configurations that {@code docs/*.md} shows do what the page says when a reader copies them into the
 * file or request their tool reads.
 *
 * <p>Every fenced {@code properties} block is written to a file and loaded with Kafka's
 * {@code org.apache.kafka.common.utils.Utils.loadProps} and {@code propsToStringMap}, the calls Kafka Connect's
 * {@code ConnectStandalone} makes for worker and connector files ({@code java.util.Properties.load} on the file's
 * bytes; Maxwell's {@code AbstractConfig.readPropertiesFile} loads its {@code config.properties} with
 * {@code Properties.load} too). A Debezium Server {@code application.properties} block is read the same way, then seen
 * as its connector sees it ({@code debezium.source.*} and {@code debezium.transforms*} without {@code debezium.} /
 * {@code debezium.source.}). Every fenced {@code json} block that holds a connector
 * ({@code connector.class}, flat or under {@code "config"} as Kafka Connect's REST API takes it) is read with Jackson.
 * Then:
 *
 * <ul>
 *   <li>no value loses a backslash or gains a control character ({@code Properties.load} reads {@code \Q} as
 *       {@code Q} and {@code \t} as a tab; a regex needs {@code \\} in a properties file, {@code \\} in JSON too);</li>
 *   <li>no value carries a trailing {@code # comment} ({@code Properties} has comment lines only, so the comment
 *       becomes part of the value);</li>
 *   <li>every regex-valued key ({@code *.regex}, Debezium's {@code *.include.list} / {@code *.exclude.list}, lists of
 *       regular expressions) compiles with {@code java.util.regex};</li>
 *   <li>every connector that routes with {@code org.apache.kafka.connect.transforms.RegexRouter} sends each of its
 *       table topics ({@code <topic.prefix>.<table>}) and its transaction topic ({@code <topic.prefix>.transaction})
 *       into one and the same topic, and leaves another connector's topic alone. The routing runs Kafka Connect's own
 *       {@code RegexRouter} ({@code Matcher.matches()}, then {@code replaceFirst(replacement)}), configured as
 *       {@code ConnectorConfig} does: the keys under {@code transforms.<alias>.}, prefix removed.</li>
 * </ul>
 *
 * Each finding names {@code docs/<file>.md:<line of the fence>}. Runs in well under a second.
 */
class DocumentedConnectorPropertiesTest {

    private static final String REGEX_ROUTER = "org.apache.kafka.connect.transforms.RegexRouter";
    private static final String DEBEZIUM_SERVER_SOURCE = "debezium.source.";
    private static final String DEBEZIUM_SERVER_TRANSFORMS = "debezium.transforms";

    /** A value that ends in a comment: white space, then {@code #}. */
    private static final Pattern TRAILING_COMMENT = Pattern.compile("\\s#");

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    /** A fenced code block of a docs page: its language tag, the 1-based line of its opening fence and its text. */
    record CodeBlock(String page, int line, String language, String text) {
        String where() {
            return "docs/" + page + ":" + line;
        }
    }

    /** A connector configuration found in a block, as the connector receives it. */
    record Connector(CodeBlock block, Map<String, String> config) {
    }

    @Test
    void everyPropertiesBlockLoadsAsWritten() {
        List<CodeBlock> blocks = blocks("properties");
        List<String> findings = new ArrayList<>();
        for (CodeBlock block : blocks) {
            findings.addAll(escapesPropertiesLoadChanges(block));
            Map<String, String> loaded = loadLikeKafkaConnect(block);
            loaded.forEach((key, value) -> {
                if (TRAILING_COMMENT.matcher(value).find()) {
                    findings.add(block.where() + ": " + key + " loads as '" + value
                            + "': a properties file has no end-of-line comments; put the comment on a line of its own");
                }
            });
            findings.addAll(regexesThatDoNotCompile(block, loaded));
        }
        assertThat(blocks).as("properties blocks in docs/*.md").hasSizeGreaterThanOrEqualTo(5);
        assertThat(findings).as("properties blocks that do not load as written (fence line: problem)").isEmpty();
    }

    @Test
    void everyRegexRouterExampleRoutesTheDocumentedTopicsIntoOneTopic() {
        List<Connector> routed = new ArrayList<>();
        for (Connector connector : connectors()) {
            if (!routers(connector).isEmpty()) {
                routed.add(connector);
            }
        }
        List<String> findings = new ArrayList<>();
        Set<String> languages = new LinkedHashSet<>();
        for (Connector connector : routed) {
            languages.add(connector.block().language());
            findings.addAll(routingFindings(connector));
        }
        assertThat(findings).as("RegexRouter examples that do not route every documented topic into one topic")
                .isEmpty();
        assertThat(languages).as("RegexRouter examples found, by block language").contains("properties", "json");
        assertThat(routed).as("connectors that route with RegexRouter in docs/*.md").hasSizeGreaterThanOrEqualTo(4);
    }

    @Test
    void propertiesLoadDropsASingleBackslashSoAnUnescapedRegexRoutesNothing() {
        CodeBlock unescaped = new CodeBlock("example.md", 1, "properties", """
                connector.class=io.debezium.connector.postgresql.PostgresConnector
                topic.prefix=pg
                table.include.list=public.orders
                transforms=route
                transforms.route.type=org.apache.kafka.connect.transforms.RegexRouter
                transforms.route.regex=\\Qpg\\E\\..*
                transforms.route.replacement=pg.all
                """);

        Map<String, String> loaded = loadLikeKafkaConnect(unescaped);

        assertThat(loaded.get("transforms.route.regex")).isEqualTo("QpgE..*");
        assertThat(escapesPropertiesLoadChanges(unescaped)).singleElement().asString()
                .contains("docs/example.md:1", "transforms.route.regex", "'\\Q', '\\E', '\\.'");
        assertThat(routingFindings(new Connector(unescaped, loaded)))
                .contains("docs/example.md:1: topic 'pg.public.orders' stays 'pg.public.orders': not routed by "
                        + "transforms.route (regex 'QpgE..*')");
    }

    // ---------------------------------------------------------------- the checks

    /**
     * The backslashes of a properties block that {@code Properties.load} would not keep: any backslash not doubled,
     * except a line continuation and a {@code \}{@code uXXXX} escape (both are deliberate).
     */
    private static List<String> escapesPropertiesLoadChanges(CodeBlock block) {
        List<String> findings = new ArrayList<>();
        String[] lines = block.text().split("\n", -1);
        for (String line : lines) {
            String body = line.stripLeading();
            if (body.isEmpty() || body.startsWith("#") || body.startsWith("!")) {
                continue;
            }
            List<String> changed = new ArrayList<>();
            for (int i = 0; i < body.length() - 1; i++) {
                if (body.charAt(i) != '\\') {
                    continue;
                }
                char next = body.charAt(i + 1);
                if (next != '\\' && next != 'u') {
                    changed.add("'\\" + next + "'");
                }
                i++; // the escaped character; a backslash at the end of the line continues it
            }
            if (!changed.isEmpty()) {
                findings.add(block.where() + ": Properties.load drops the backslash of " + String.join(", ", changed)
                        + " (or turns \\t, \\n, \\r, \\f into control characters) in '" + body.strip()
                        + "': double each backslash");
            }
        }
        return findings;
    }

    /** Regex-valued keys whose value (or a comma-separated element of it) does not compile. */
    private static List<String> regexesThatDoNotCompile(CodeBlock block, Map<String, String> config) {
        List<String> findings = new ArrayList<>();
        config.forEach((key, value) -> {
            List<String> regexes = key.endsWith("regex") ? List.of(value)
                    : key.endsWith(".include.list") || key.endsWith(".exclude.list") ? List.of(value.split(","))
                    : List.of();
            for (String regex : regexes) {
                try {
                    Pattern.compile(regex.strip());
                } catch (PatternSyntaxException e) {
                    findings.add(block.where() + ": " + key + " '" + regex + "' is no regular expression: "
                            + e.getDescription());
                }
            }
        });
        return findings;
    }

    /**
     * Runs each of the connector's topics through its RegexRouter transforms in order: every table topic and the
     * transaction topic must end in one and the same topic, and a topic of another connector must stay as it is.
     */
    private static List<String> routingFindings(Connector connector) {
        Map<String, String> config = connector.config();
        String where = connector.block().where();
        String prefix = config.get("topic.prefix");
        if (prefix == null) {
            return List.of(where + ": a RegexRouter example without topic.prefix names no topic to route");
        }
        List<String> topics = new ArrayList<>(tableTopics(prefix, config));
        if (topics.isEmpty()) {
            return List.of(where + ": no table.include.list, database.include.list or schema.include.list to name a "
                    + "table topic with");
        }
        topics.add(prefix + "." + config.getOrDefault("topic.transaction", "transaction"));
        List<String> findings = new ArrayList<>();
        Set<String> targets = new LinkedHashSet<>();
        for (String topic : topics) {
            String routedTo = route(connector, topic);
            if (routedTo.equals(topic)) {
                findings.add(where + ": topic '" + topic + "' stays '" + topic + "': not routed by " + describe(connector));
            } else {
                targets.add(routedTo);
            }
        }
        if (targets.size() > 1) {
            findings.add(where + ": the topics " + topics + " go to " + targets.size() + " topics " + targets
                    + ", not one");
        }
        String foreign = "other-" + prefix + ".public.orders";
        if (!route(connector, foreign).equals(foreign)) {
            findings.add(where + ": " + describe(connector) + " also takes '" + foreign + "', a topic of another "
                    + "connector");
        }
        return findings;
    }

    /** Debezium's default topic names of the block's tables: {@code <prefix>.<schema or database>.<table>}. */
    private static List<String> tableTopics(String prefix, Map<String, String> config) {
        List<String> topics = new ArrayList<>();
        String tables = config.get("table.include.list");
        String databases = config.getOrDefault("database.include.list", config.get("schema.include.list"));
        if (tables != null) {
            for (String table : tables.split(",")) {
                topics.add(prefix + "." + table.strip());
            }
        } else if (databases != null) {
            for (String database : databases.split(",")) {
                topics.add(prefix + "." + database.strip() + ".orders");
                topics.add(prefix + "." + database.strip() + ".order_lines");
            }
        }
        return topics;
    }

    /** The topic a record of {@code topic} is written to after the connector's RegexRouter transforms. */
    private static String route(Connector connector, String topic) {
        String current = topic;
        for (Map<String, String> router : routers(connector).values()) {
            try (RegexRouter<SourceRecord> transform = new RegexRouter<>()) {
                transform.configure(router);
                current = transform.apply(new SourceRecord(null, null, current, null, null)).topic();
            }
        }
        return current;
    }

    /** The connector's routers as a finding names them: {@code transforms.<alias> (regex '<regex>')}, ... */
    private static String describe(Connector connector) {
        List<String> names = new ArrayList<>();
        routers(connector).forEach((alias, config) ->
                names.add("transforms." + alias + " (regex '" + config.get("regex") + "')"));
        return String.join(", ", names);
    }

    /** The connector's RegexRouter transforms in chain order: alias to its configuration, as ConnectorConfig passes it. */
    private static Map<String, Map<String, String>> routers(Connector connector) {
        Map<String, String> config = connector.config();
        Map<String, Map<String, String>> routers = new LinkedHashMap<>();
        String chain = config.get("transforms");
        if (chain == null) {
            return routers;
        }
        for (String alias : chain.split(",")) {
            String prefix = "transforms." + alias.strip() + ".";
            if (!REGEX_ROUTER.equals(config.get(prefix + "type"))) {
                continue;
            }
            Map<String, String> own = new TreeMap<>();
            config.forEach((key, value) -> {
                if (key.startsWith(prefix) && !key.equals(prefix + "type")) {
                    own.put(key.substring(prefix.length()), value);
                }
            });
            routers.put(alias.strip(), own);
        }
        return routers;
    }

    // ---------------------------------------------------------------- reading the docs

    /** Every connector configuration in the docs' properties and JSON blocks. */
    private List<Connector> connectors() {
        List<Connector> connectors = new ArrayList<>();
        for (CodeBlock block : blocks("properties")) {
            Map<String, String> loaded = loadLikeKafkaConnect(block);
            Map<String, String> config = debeziumServerSource(loaded);
            if (config.containsKey("connector.class")) {
                connectors.add(new Connector(block, config));
            }
        }
        for (CodeBlock block : blocks("json")) {
            if (!block.text().contains("\"connector.class\"")) {
                continue;
            }
            JsonNode node;
            try {
                node = JSON.readTree(block.text());
            } catch (IOException e) {
                throw new AssertionError(block.where() + ": a connector's JSON that does not parse: "
                        + e.getMessage(), e);
            }
            JsonNode config = node.has("config") ? node.get("config") : node;
            Map<String, String> map = new TreeMap<>();
            for (Map.Entry<String, JsonNode> field : config.properties()) {
                map.put(field.getKey(), field.getValue().asText());
            }
            connectors.add(new Connector(block, map));
        }
        return connectors;
    }

    /**
     * A Debezium Server {@code application.properties} as the connector sees it: {@code debezium.source.*} without
     * the prefix, {@code debezium.transforms*} as {@code transforms*}. Any other block is returned as it is.
     */
    private static Map<String, String> debeziumServerSource(Map<String, String> loaded) {
        if (loaded.keySet().stream().noneMatch(key -> key.startsWith(DEBEZIUM_SERVER_SOURCE))) {
            return loaded;
        }
        Map<String, String> config = new TreeMap<>();
        loaded.forEach((key, value) -> {
            if (key.startsWith(DEBEZIUM_SERVER_SOURCE)) {
                config.put(key.substring(DEBEZIUM_SERVER_SOURCE.length()), value);
            } else if (key.startsWith(DEBEZIUM_SERVER_TRANSFORMS)) {
                config.put(key.substring("debezium.".length()), value);
            }
        });
        return config;
    }

    /** Writes the block to a file and loads it with the calls Kafka Connect's {@code ConnectStandalone} makes. */
    private Map<String, String> loadLikeKafkaConnect(CodeBlock block) {
        try {
            Path file = Files.createTempFile(tmp, "block", ".properties");
            Files.writeString(file, block.text(), StandardCharsets.ISO_8859_1);
            return Utils.propsToStringMap(Utils.loadProps(file.toString()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load " + block.where(), e);
        }
    }

    /** The fenced blocks of every {@code docs/*.md} whose info string starts with {@code language}. */
    private static List<CodeBlock> blocks(String language) {
        List<CodeBlock> blocks = new ArrayList<>();
        Path docs = reactorRoot().resolve("docs");
        try (Stream<Path> pages = Files.list(docs)) {
            for (Path page : pages.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                blocks.addAll(blocksOf(page.getFileName().toString(), Files.readAllLines(page, StandardCharsets.UTF_8),
                        language));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + docs, e);
        }
        return blocks;
    }

    private static List<CodeBlock> blocksOf(String page, List<String> lines, String language) {
        List<CodeBlock> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String fence = lines.get(i).strip();
            if (!fence.startsWith("```")) {
                continue;
            }
            String info = fence.substring(3).strip();
            StringBuilder text = new StringBuilder();
            int j = i + 1;
            while (j < lines.size() && !lines.get(j).strip().equals("```")) {
                text.append(lines.get(j)).append('\n');
                j++;
            }
            if (info.equals(language) || info.startsWith(language + " ")) {
                blocks.add(new CodeBlock(page, i + 1, language, text.toString()));
            }
            i = j;
        }
        return blocks;
    }

    /** The reactor root: the nearest ancestor of the working directory that holds {@code docs}, {@code app} and a pom. */
    private static Path reactorRoot() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("docs")) && Files.isDirectory(p.resolve("app"))
                    && Files.isRegularFile(p.resolve("pom.xml"))) {
                return p;
            }
        }
        throw new IllegalStateException("no reactor root (a directory with docs/, app/ and pom.xml) above " + dir);
    }
}
