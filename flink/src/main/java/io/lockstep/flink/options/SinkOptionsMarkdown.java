package io.lockstep.flink.options;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Renders the option catalogue ({@link SinkOptionDefinitions}) as {@code docs/options.md}, so the
 * documentation cannot drift from validation: a test compares the file with {@link #render()}.
 * Regenerate with {@code java ... io.lockstep.flink.options.SinkOptionsMarkdown docs/options.md}
 * or by running {@code SinkOptionsMarkdownTest} with {@code -Dlockstep.docs.regenerate=true}.
 */
public final class SinkOptionsMarkdown {

    private SinkOptionsMarkdown() {
    }

    /** @return the full Markdown text of {@code docs/options.md}, ending with a newline */
    public static String render() {
        StringBuilder md = new StringBuilder();
        md.append("# Sink options\n\n")
          .append("<!-- Generated from io.lockstep.flink.options.SinkOptionDefinitions by SinkOptionsMarkdown;\n")
          .append("     edit the catalogue, not this file. A test fails when the two differ. -->\n\n")
          .append("Options of the StarRocks sink, set with\n")
          .append("`StarRocksSinkOptions.builder().withProperty(key, value)...build()`. Names and defaults\n")
          .append("follow the StarRocks Flink connector; `build()` validates them and fails with an\n")
          .append("`InvalidSinkOptionException` that names the option, the rejected value and what is expected.\n\n")
          .append("| Option | Type | Default | Required | Description |\n")
          .append("|---|---|---|---|---|\n");
        for (SinkOption<?> option : SinkOptionDefinitions.ALL) {
            md.append("| `").append(option.key()).append("` | ")
              .append(cell(option.typeName())).append(" | ")
              .append(cell(option.defaultText())).append(" | ")
              .append(option.isRequired() ? "yes" : "no").append(" | ")
              .append(cell(option.description())).append(" |\n");
        }
        md.append("\n## Stream load headers: `sink.properties.*`\n\n")
          .append("Every option `sink.properties.<header>` is sent as the stream load header `<header>`\n")
          .append("(names are case-insensitive and stored lower-case), e.g. `sink.properties.format=json`,\n")
          .append("`sink.properties.strip_outer_array=true`, `sink.properties.columns=...`.\n")
          .append("`StarRocksSinkOptions.addTableProperties(StreamLoadTableProperties)` overrides them for one\n")
          .append("table. These header names are set by the sink itself and are rejected: ")
          .append(codeList(SinkOptionDefinitions.RESERVED_STREAM_LOAD_HEADERS)).append(".\n")
          .append("Load bodies are compressed with `sink.properties.compression` on StarRocks (`gzip`, `bzip2`,\n")
          .append("`lz4_frame`, `zstd`; JSON needs StarRocks 3.2.7 or later) and `sink.properties.compress_type` on\n")
          .append("Doris (`gz`, `bz2`, `lz4`): see [sinks.md](sinks.md#compression). The sink declares the\n")
          .append("compression as the target reads it (StarRocks CSV: the `format` values ")
          .append(codeList(StreamLoadFormat.COMPRESSED_CSV)).append(",\n")
          .append("which are refused as options); the other target's header and ")
          .append(codeList(SinkOptionsValidator.COMPRESSION_HEADERS.keySet()))
          .append(" are refused naming the option.\n\n")
          .append("`strict_mode` is sent as `true` unless `sink.properties.strict_mode` says otherwise: StarRocks'\n")
          .append("and Doris' own default (`false`) stores a value that does not convert to its column's type (a\n")
          .append("text for a BIGINT, a string longer than its VARCHAR) as NULL without a word. With the default,\n")
          .append("such a load is refused and the sink fails once, as a data error, quoting the first lines of the\n")
          .append("server's error log; `sink.properties.max_filter_ratio` keeps its StarRocks meaning (the share of\n")
          .append("rows a load may filter). Set `sink.properties.strict_mode=false` for the servers' behaviour.\n\n")
          .append("Partial updates (`sink.properties.partial_update=true`, PRIMARY KEY tables, row mode): the\n")
          .append("`columns` header must name the columns the rows carry, and every row of that table must carry\n")
          .append("exactly those keys. StarRocks needs the same load parameters for every load of a transaction and\n")
          .append("writes a partial row's missing columns from the load's plan, so a row with another column set\n")
          .append("would lose or overwrite columns: it is refused when it is written, naming its keys and the\n")
          .append("declared columns; rows accepted before it are not affected. Rows with other column sets need\n")
          .append("a sink (or a table property set) of their own.\n\n")
          .append("## Rules between options\n\n")
          .append("- `sink.transaction.multi-table.enabled=true` requires `sink.version=V2` and rejects\n")
          .append("  `sink.properties.enable_merge_commit=true`; with `sink.semantic=exactly-once` (exactly-once across\n")
          .append("  tables, the variant `lockstep run` uses: [exactly-once.md](exactly-once.md)) it also needs\n")
          .append("  `sink.transaction.multi-table.job-id` and a fixed `database-name`.\n")
          .append("- `sink.properties.enable_merge_commit=true` is rejected in every mode (not supported).\n")
          .append("- At-least-once: `sink.properties.timeout` (seconds, default 600) must exceed\n")
          .append("  `sink.buffer-flush.interval-ms`. Exactly-once commits at checkpoints; the sink compares\n")
          .append("  the timeout with the checkpoint interval when it opens and refuses to start if it is not longer.\n")
          .append("- Table properties must match a fixed `database-name` / `table-name` (not `*`), and each\n")
          .append("  table may be added once.\n")
          .append("- `sink.version=V1` parses but is rejected by `SinkFunctionFactory.createSinkFunction`.\n")
          .append("- `sink.target=doris` (see [doris.md](doris.md)) refuses `sink.transaction.multi-table.enabled=true`\n")
          .append("  (Doris has no multi-table transaction over HTTP; exactly-once holds per table) and the headers\n")
          .append("  `sink.properties.two_phase_commit`, `txn_operation` and `group_commit`; the at-least-once\n")
          .append("  timeout rule above does not apply to it (each Doris load commits by itself).\n")
          .append("- The Doris connector names `fenodes`, `table.identifier` and `sink.enable-2pc` need\n")
          .append("  `sink.target=doris` and stand for `load-url`, `database-name` + `table-name` and `sink.semantic`;\n")
          .append("  setting one together with the option it stands for is refused.\n\n")
          .append("## Unknown options\n\n")
          .append("Unknown keys are rejected, not ignored: a misspelt key that silently fell back to its\n")
          .append("default could change the delivery guarantee. The error suggests the closest known key.\n")
          .append("These options of the StarRocks connector are not supported by Lockstep and get a\n")
          .append("dedicated error:\n\n")
          .append("| Option | Why not |\n")
          .append("|---|---|\n");
        for (Map.Entry<String, String> entry : SinkOptionDefinitions.UNSUPPORTED_CONNECTOR_OPTIONS.entrySet()) {
            md.append("| `").append(entry.getKey()).append("` | ").append(cell(entry.getValue())).append(" |\n");
        }
        return md.toString();
    }

    /**
     * Writes {@link #render()} to a file.
     *
     * @param args one argument: the target path, e.g. {@code docs/options.md}
     * @throws IOException if the file cannot be written
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: SinkOptionsMarkdown <path of docs/options.md>");
        }
        Files.writeString(Path.of(args[0]), render(), StandardCharsets.UTF_8);
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    private static String codeList(Set<String> names) {
        StringBuilder out = new StringBuilder();
        for (String name : new TreeSet<>(names)) {
            if (out.length() > 0) {
                out.append(", ");
            }
            out.append('`').append(name).append('`');
        }
        return out.toString();
    }
}
