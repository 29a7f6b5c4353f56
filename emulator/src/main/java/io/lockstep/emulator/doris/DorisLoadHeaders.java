package io.lockstep.emulator.doris;

import io.lockstep.emulator.catalog.ColumnSchema;
import io.lockstep.emulator.catalog.KeysType;
import io.lockstep.emulator.catalog.TableSchema;
import io.lockstep.emulator.http.ServerRequest;
import io.lockstep.emulator.load.BodyDecompression;
import io.lockstep.emulator.load.LoadFormatException;
import io.lockstep.emulator.load.StreamLoadFormat;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Reads the data headers of a Doris {@code _stream_load} (docs/protocol.md#doris-endpoints-redirects-and-headers) into
 * the emulator's shared load format: {@code format} (csv, json), {@code column_separator}, {@code line_delimiter},
 * {@code columns}, {@code where}, {@code jsonpaths}, {@code json_root}, {@code strip_outer_array},
 * {@code read_json_by_line} (the JSON reader reads a sequence of objects either way), {@code strict_mode},
 * {@code max_filter_ratio}, {@code timezone}/{@code time_zone}, {@code partitions}, {@code hidden_columns},
 * {@code merge_type}, {@code delete}, and {@code compress_type} ({@code gz}, {@code bz2}, {@code lz4};
 * {@link #decode}).
 *
 * <p>The delete sign is {@code __DORIS_DELETE_SIGN__}: a source column of that name (in {@code columns}, as a JSON key,
 * or the trailing CSV field that {@code hidden_columns} adds when {@code columns} is absent) deletes the key when 1, on
 * UNIQUE KEY tables; on other tables it is an unused source column, as the Flink connector sends it whatever the table
 * model (docs/protocol.md#what-the-doris-connector-does). Features the emulator does not implement (other formats,
 * other compressions, {@code enclose}, {@code escape}, {@code skip_lines}, {@code trim_double_quotes},
 * {@code empty_field_as_null}, partial updates, sequence columns) fail with NOT_IMPLEMENTED_ERROR naming the header, so
 * a test never passes by accident. Stateless.
 */
final class DorisLoadHeaders {
    /** Doris' delete-sign hidden column. */
    static final String DELETE_SIGN = "__DORIS_DELETE_SIGN__";

    private DorisLoadHeaders() {
    }

    /**
     * @param table the target table (needed for {@code hidden_columns} without {@code columns})
     * @throws LoadFormatException with the BE status name and text for an unusable header
     */
    static StreamLoadFormat format(ServerRequest req, TableSchema table) throws LoadFormatException {
        Map<String, String> h = req.headers();
        Map<String, String> shared = new HashMap<>();
        String format = lower(h.get("format"));
        if (format != null) {
            switch (format) {
                case "csv", "json" -> shared.put("format", format);
                case "csv_with_names", "csv_with_names_and_types", "arrow", "parquet", "orc", "hive_text" ->
                        throw notImplemented("format: " + format);
                default -> throw new LoadFormatException("INVALID_ARGUMENT", "unknown data format, format="
                        + h.get("format"));
            }
        }
        copy(h, shared, "column_separator", "column_separator");
        copy(h, shared, "line_delimiter", "row_delimiter");
        copy(h, shared, "where", "where");
        copy(h, shared, "jsonpaths", "jsonpaths");
        copy(h, shared, "json_root", "json_root");
        copy(h, shared, "strip_outer_array", "strip_outer_array");
        copy(h, shared, "strict_mode", "strict_mode");
        copy(h, shared, "max_filter_ratio", "max_filter_ratio");
        copy(h, shared, "partitions", "partitions");
        copy(h, shared, "temporary_partitions", "temporary_partitions");
        copy(h, shared, "time_zone", "timezone");
        copy(h, shared, "timezone", "timezone");
        for (String unsupported : List.of("enclose", "escape", "function_column.sequence_col")) {
            if (nonEmpty(h.get(unsupported)) != null) {
                throw notImplemented(unsupported);
            }
        }
        rejectIf(h, "trim_double_quotes", "true");
        rejectIf(h, "empty_field_as_null", "true");
        rejectIf(h, "partial_columns", "true");
        String skipLines = nonEmpty(h.get("skip_lines"));
        if (skipLines != null && !skipLines.trim().equals("0")) {
            throw notImplemented("skip_lines: " + skipLines);
        }
        String updateMode = nonEmpty(h.get("unique_key_update_mode"));
        if (updateMode != null && !updateMode.trim().equalsIgnoreCase("UPSERT")) {
            throw notImplemented("unique_key_update_mode: " + updateMode);
        }
        String columns = nonEmpty(h.get("columns"));
        if (columns != null) {
            shared.put("columns", columns);
        } else if (!"json".equals(format) && hiddenDeleteSign(h) && table.keysType() == KeysType.UNIQUE_KEYS) {
            shared.put("columns", table.columns().stream().map(ColumnSchema::name).map(n -> "`" + n + "`")
                    .collect(Collectors.joining(",")) + "," + DELETE_SIGN);
        }
        StreamLoadFormat base = StreamLoadFormat.fromHeaders(shared);
        String mergeText = nonEmpty(h.get("merge_type"));
        String deleteCondition = nonEmpty(h.get("delete"));
        StreamLoadFormat.MergeType merge = StreamLoadFormat.MergeType.APPEND;
        if (mergeText != null) {
            try {
                merge = StreamLoadFormat.MergeType.valueOf(mergeText.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new LoadFormatException("INVALID_ARGUMENT", "Invalid merge type " + mergeText
                        + "; expected APPEND, DELETE or MERGE");
            }
        }
        if (merge == StreamLoadFormat.MergeType.MERGE && deleteCondition == null) {
            throw new LoadFormatException("INVALID_ARGUMENT", "Excepted DELETE ON clause when merge type is MERGE.");
        }
        if (merge != StreamLoadFormat.MergeType.MERGE && deleteCondition != null) {
            throw new LoadFormatException("INVALID_ARGUMENT",
                    "not support DELETE ON clause when merge type is not MERGE.");
        }
        return base.withDeletes(DELETE_SIGN, KeysType.UNIQUE_KEYS, merge, deleteCondition);
    }

    /**
     * The body as the scanner reads it, decoded for {@code compress_type} {@code gz} (also {@code gzip}), {@code bz2}
     * or {@code lz4} (the LZ4 frame format) (Doris docs "Stream Load", compress_type), for CSV and JSON (Doris reads
     * compressed JSON since apache/doris pull request 48990).
     *
     * @throws LoadFormatException NOT_IMPLEMENTED_ERROR for Doris' other types (lzo, lzop, deflate), INVALID_ARGUMENT
     *                             for an unknown one, INTERNAL_ERROR for a body that does not decode
     */
    static byte[] decode(ServerRequest req, byte[] body) throws LoadFormatException {
        String compress = lower(req.header("compress_type"));
        if (compress == null || compress.isEmpty()) {
            return body;
        }
        BodyDecompression codec = switch (compress) {
            case "gz", "gzip" -> BodyDecompression.GZIP;
            case "bz2" -> BodyDecompression.BZIP2;
            case "lz4" -> BodyDecompression.LZ4_FRAME;
            case "lzo", "lzop", "deflate" -> throw notImplemented("compress_type: " + compress);
            default -> throw new LoadFormatException("INVALID_ARGUMENT", "unknown compress type: " + compress);
        };
        return codec.decode(body);
    }

    private static boolean hiddenDeleteSign(Map<String, String> h) throws LoadFormatException {
        String hidden = nonEmpty(h.get("hidden_columns"));
        if (hidden == null) {
            return false;
        }
        boolean deleteSign = false;
        for (String part : hidden.split(",")) {
            String name = part.trim();
            if (name.equalsIgnoreCase(DELETE_SIGN)) {
                deleteSign = true;
            } else if (!name.isEmpty()) {
                throw notImplemented("hidden_columns: " + name);
            }
        }
        return deleteSign;
    }

    private static void rejectIf(Map<String, String> h, String name, String value) throws LoadFormatException {
        String v = nonEmpty(h.get(name));
        if (v != null && v.trim().equalsIgnoreCase(value)) {
            throw notImplemented(name + ": " + v);
        }
    }

    private static void copy(Map<String, String> from, Map<String, String> to, String dorisName, String sharedName) {
        String v = nonEmpty(from.get(dorisName));
        if (v != null) {
            to.put(sharedName, v);
        }
    }

    private static LoadFormatException notImplemented(String what) {
        return new LoadFormatException("NOT_IMPLEMENTED_ERROR", what + " is not supported by the emulator");
    }

    private static String nonEmpty(String v) {
        return v == null || v.isEmpty() ? null : v;
    }

    private static String lower(String v) {
        return v == null ? null : v.trim().toLowerCase(Locale.ROOT);
    }
}
