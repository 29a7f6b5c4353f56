package io.lockstep.emulator.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.emulator.catalog.KeysType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import javax.annotation.concurrent.Immutable;

/**
 * The data headers of one load, parsed the way the StarRocks BE parses them for {@code /api/transaction/load} (BE
 * {@code transaction_stream_load.cpp} {@code _parse_request}; docs/protocol.md#load-headers,
 * #data-formats-and-filtered-rows).
 *
 * <p>Header values the BE checks fail here with its status and text: {@code strict_mode} other than true/false
 * (case-insensitive) → INVALID_ARGUMENT "Invalid strict mode format. Must be bool type"; both {@code partitions} and
 * {@code temporary_partitions}; both {@code Content-Encoding} and {@code compression}; a negative or non-numeric
 * {@code load_mem_limit}; a non-numeric {@code load_dop}; an unknown {@code format} → INTERNAL_ERROR
 * "unknown data format, format=X". Headers the BE reads leniently stay lenient: {@code strip_outer_array} is true
 * only for "true" (any case), anything else is false; {@code max_filter_ratio} is read like C {@code strtod}
 * (a leading number, else 0). Features the emulator does not implement ({@code partial_update},
 * {@code merge_condition}, {@code negative}, the compressed-CSV format {@code deflate}, payload codecs other than
 * GZIP/BZIP2/LZ4_FRAME/ZSTD, and payload compression of CSV) fail with NOT_IMPLEMENTED_ERROR naming the header, so a
 * test never passes by accident. Compressed bodies ({@code compression} / {@code Content-Encoding} for JSON, the
 * compressed-CSV formats gzip/bzip2/lz4/zstd) are decoded before they are read ({@link BodyDecompression}).
 *
 * <p>Immutable and thread-safe. {@link #sameLoadRequest} compares the fields the BE compares between the loads of one
 * transaction (docs/protocol.md#load-headers, "load request not equal last.").
 */
@Immutable
public final class StreamLoadFormat implements LoadFormat {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String formatName;
    private final ColumnsHeader columns;
    private final String where;
    private final Delimiter columnSeparator;
    private final Delimiter rowDelimiter;
    private final List<String> jsonPaths;
    private final String jsonRoot;
    private final boolean stripOuterArray;
    private final boolean strictMode;
    private final boolean partialUpdate;
    private final String timezone;
    private final double maxFilterRatio;
    /** The request fields of docs/protocol.md#load-headers, normalized, keyed by header name. */
    private final Map<String, String> requestFields;
    /** The source column that marks a row as a delete on key-upsert tables: {@code __op} unless a dialect says. */
    private final String deleteColumn;
    /** The table model whose loads read {@link #deleteColumn}: PRIMARY KEY ({@code __op}) unless a dialect says. */
    private final KeysType deleteTables;
    /** Doris {@code merge_type}; APPEND for StarRocks loads. */
    private final MergeType mergeType;
    /** Doris {@code delete} condition (MERGE only), or null. */
    private final String deleteCondition;
    /** The body's compression ({@code compression} / {@code Content-Encoding}, a compressed-CSV format), or null. */
    private final BodyDecompression compression;

    /**
     * Doris' {@code merge_type} (docs/protocol.md#doris-endpoints-redirects-and-headers): APPEND (rows upsert; the
     * delete column may mark deletes), DELETE (every row deletes its key), MERGE (rows matching the {@code delete}
     * condition delete their key).
     */
    public enum MergeType { APPEND, DELETE, MERGE }

    private StreamLoadFormat(StreamLoadFormat base, String deleteColumn,
                             KeysType deleteTables, MergeType mergeType,
                             String deleteCondition) {
        this.formatName = base.formatName;
        this.columns = base.columns;
        this.where = base.where;
        this.columnSeparator = base.columnSeparator;
        this.rowDelimiter = base.rowDelimiter;
        this.jsonPaths = base.jsonPaths;
        this.jsonRoot = base.jsonRoot;
        this.stripOuterArray = base.stripOuterArray;
        this.strictMode = base.strictMode;
        this.partialUpdate = base.partialUpdate;
        this.timezone = base.timezone;
        this.maxFilterRatio = base.maxFilterRatio;
        this.requestFields = base.requestFields;
        this.deleteColumn = deleteColumn;
        this.deleteTables = deleteTables;
        this.mergeType = mergeType;
        this.deleteCondition = deleteCondition;
        this.compression = base.compression;
    }

    private StreamLoadFormat(Map<String, String> headers) throws LoadFormatException {
        this.deleteColumn = LoadPlan.OP_COLUMN;
        this.deleteTables = KeysType.PRIMARY_KEYS;
        this.mergeType = MergeType.APPEND;
        this.deleteCondition = null;
        String format = lower(headers.get("format"));
        String given = format == null || format.isEmpty() ? "csv" : format;
        BodyDecompression csvCompression = switch (given) {
            case "csv", "json" -> null;
            case "gzip" -> BodyDecompression.GZIP;
            case "bzip2" -> BodyDecompression.BZIP2;
            case "lz4" -> BodyDecompression.LZ4_FRAME;
            case "zstd" -> BodyDecompression.ZSTD;
            case "deflate" -> throw notImplemented("format=deflate (compressed CSV)");
            default -> throw new LoadFormatException("INTERNAL_ERROR", "unknown data format, format="
                    + headers.get("format"));
        };
        this.formatName = csvCompression == null ? given : "csv";
        String columnsHeader = nonEmpty(headers.get("columns"));
        this.columns = columnsHeader == null ? null : ColumnsHeader.parse(columnsHeader);
        this.where = nonEmpty(headers.get("where"));
        String separator = nonEmpty(headers.get("column_separator"));
        this.columnSeparator = separator == null ? Delimiter.TAB : Delimiter.parse("column_separator", separator);
        String delimiter = nonEmpty(headers.get("row_delimiter"));
        this.rowDelimiter = delimiter == null ? Delimiter.NEWLINE : Delimiter.parse("row_delimiter", delimiter);
        if (nonEmpty(headers.get("partitions")) != null && nonEmpty(headers.get("temporary_partitions")) != null) {
            throw new LoadFormatException("INVALID_ARGUMENT",
                    "Can not specify both partitions and temporary partitions");
        }
        if ("true".equals(headers.get("negative"))) {
            throw notImplemented("negative: true (only meaningful for AGGREGATE tables)");
        }
        this.strictMode = parseStrictMode(headers.get("strict_mode"));
        this.timezone = nonEmpty(headers.get("timezone"));
        checkLong(headers, "load_mem_limit", "Invalid load mem limit format", true);
        checkLong(headers, "load_dop", "Invalid load_dop format", false);
        this.jsonPaths = parseJsonPaths(nonEmpty(headers.get("jsonpaths")));
        this.jsonRoot = nonEmpty(headers.get("json_root"));
        if (jsonRoot != null) {
            JsonPath.parse(jsonRoot);
        }
        String strip = headers.get("strip_outer_array");
        this.stripOuterArray = strip != null && strip.equalsIgnoreCase("true");
        this.partialUpdate = "true".equals(headers.get("partial_update"));
        if (partialUpdate && "column".equals(headers.get("partial_update_mode"))) {
            throw notImplemented("partial_update_mode: column (row mode is implemented)");
        }
        if (nonEmpty(headers.get("merge_condition")) != null) {
            throw notImplemented("merge_condition");
        }
        String contentEncoding = nonEmpty(headers.get("content-encoding"));
        String compression = nonEmpty(headers.get("compression"));
        if (contentEncoding != null && compression != null) {
            throw new LoadFormatException("INVALID_ARGUMENT",
                    "Only one of http header content-encoding and compression can be set");
        }
        String payload = contentEncoding != null ? contentEncoding : compression;
        if (payload != null) {
            if (!"json".equals(formatName)) {
                throw notImplemented("payload compression (" + payload + ") with format=" + given
                        + " (documented for JSON; compressed CSV is named by format)");
            }
            this.compression = payloadCompression(payload);
        } else {
            this.compression = csvCompression;
        }
        this.maxFilterRatio = strtod(headers.get("max_filter_ratio"));
        this.requestFields = requestFields(headers, given);
    }

    /**
     * @param headers request headers with lower-cased names
     * @throws LoadFormatException with the BE status name and message for an unusable header
     */
    public static StreamLoadFormat fromHeaders(Map<String, String> headers) throws LoadFormatException {
        Objects.requireNonNull(headers, "headers");
        Map<String, String> lowerCased = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        lowerCased.putAll(headers);
        return new StreamLoadFormat(lowerCased);
    }

    private static Map<String, String> requestFields(Map<String, String> headers, String formatName) {
        Map<String, String> fields = new TreeMap<>();
        fields.put("format", formatName);
        for (String name : List.of("columns", "where", "column_separator", "row_delimiter", "partitions",
                "temporary_partitions", "timezone", "load_mem_limit", "jsonpaths", "json_root", "merge_condition",
                "transmission_compression_type", "load_dop", "compression",
                "content-encoding")) {
            String value = nonEmpty(headers.get(name));
            if (value != null) {
                fields.put(name, value);
            }
        }
        String mode = headers.get("partial_update_mode");
        if ("row".equals(mode) || "auto".equals(mode) || "column".equals(mode)) {
            // The BE sets the mode only for these three values and ignores any other.
            fields.put("partial_update_mode", mode);
        }
        fields.put("negative", String.valueOf("true".equals(headers.get("negative"))));
        fields.put("partial_update", String.valueOf("true".equals(headers.get("partial_update"))));
        String strip = headers.get("strip_outer_array");
        fields.put("strip_outer_array", String.valueOf(strip != null && strip.equalsIgnoreCase("true")));
        String strict = nonEmpty(headers.get("strict_mode"));
        if (strict != null) {
            fields.put("strict_mode", strict.toLowerCase(Locale.ROOT));
        }
        return Collections.unmodifiableMap(fields);
    }

    /**
     * The payload compression of a JSON load, StarRocks' names (case-insensitive): GZIP, BZIP2, LZ4_FRAME, ZSTD
     * (StarRocks docs "STREAM LOAD", data_desc: compression). Other codecs the BE knows (e.g. DEFLATE, SNAPPY) are not
     * implemented by the emulator; an unknown name is refused as INVALID_ARGUMENT.
     */
    private static BodyDecompression payloadCompression(String value) throws LoadFormatException {
        String name = value.trim().toUpperCase(Locale.ROOT);
        for (BodyDecompression c : BodyDecompression.values()) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        if (List.of("DEFLATE", "ZLIB", "SNAPPY", "LZ4", "LZ4_HADOOP").contains(name)) {
            throw notImplemented("payload compression " + value);
        }
        throw new LoadFormatException("INVALID_ARGUMENT", "unknown compression type: " + value);
    }

    /**
     * The body as the scanner reads it: decoded with the load's compression, or as received when it has none.
     *
     * @throws LoadFormatException INTERNAL_ERROR for a body that does not decode
     */
    byte[] decompress(byte[] body) throws LoadFormatException {
        return compression == null ? body : compression.decode(body);
    }

    private static boolean parseStrictMode(String value) throws LoadFormatException {
        if (value == null || value.isEmpty() || value.equalsIgnoreCase("false")) {
            return false;
        }
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        throw new LoadFormatException("INVALID_ARGUMENT", "Invalid strict mode format. Must be bool type");
    }

    private static void checkLong(Map<String, String> headers, String name, String invalidText, boolean nonNegative)
            throws LoadFormatException {
        String value = nonEmpty(headers.get(name));
        if (value == null) {
            return;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\s*([+-]?[0-9]+)").matcher(value);
        if (!m.find()) {
            throw new LoadFormatException("INVALID_ARGUMENT", invalidText);
        }
        if (nonNegative && m.group(1).startsWith("-") && !m.group(1).matches("-0+")) {
            throw new LoadFormatException("INVALID_ARGUMENT", name + " must be equal or greater than 0");
        }
    }

    private static List<String> parseJsonPaths(String header) throws LoadFormatException {
        if (header == null) {
            return null;
        }
        JsonNode node;
        try {
            node = JSON.readTree(header);
        } catch (Exception e) {
            node = null;
        }
        if (node == null || !node.isArray() || node.isEmpty()) {
            throw new LoadFormatException("INVALID_ARGUMENT", "Invalid json path: " + header
                    + " (jsonpaths must be a JSON array of path strings such as [\"$.id\", \"$.name\"])");
        }
        List<String> paths = new ArrayList<>();
        for (JsonNode element : node) {
            if (!element.isTextual()) {
                throw new LoadFormatException("INVALID_ARGUMENT", "Invalid json path: " + element
                        + " in jsonpaths " + header);
            }
            JsonPath.parse(element.asText());
            paths.add(element.asText());
        }
        return List.copyOf(paths);
    }

    /** C {@code strtod}: the longest leading decimal number, or 0 when there is none. */
    static double strtod(String value) {
        if (value == null) {
            return 0;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern
                .compile("^\\s*([+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?)").matcher(value);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    private static LoadFormatException notImplemented(String what) {
        return new LoadFormatException("NOT_IMPLEMENTED_ERROR", what + " is not supported by the emulator");
    }

    private static String nonEmpty(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    private static String lower(String value) {
        return value == null ? null : value.trim().toLowerCase(Locale.ROOT);
    }

    /**
     * {@inheritDoc}
     *
     * <p>As read by the BE ({@code strtod}): no range check, so a negative value fails every load with filtered
     * rows and a value above 1 never fails one.
     */
    @Override
    public double maxFilterRatio() {
        return maxFilterRatio;
    }

    @Override
    public String formatName() {
        return formatName;
    }

    /** True for {@code format: json}. */
    public boolean isJson() {
        return "json".equals(formatName);
    }

    /** The parsed {@code columns} header, or null when absent. */
    public ColumnsHeader columns() {
        return columns;
    }

    /** The {@code where} header, or null; parsed against the table by the body parser ({@link WherePredicate}). */
    public String where() {
        return where;
    }

    Delimiter columnSeparator() {
        return columnSeparator;
    }

    Delimiter rowDelimiter() {
        return rowDelimiter;
    }

    /** The {@code jsonpaths} paths, or null when absent (simple mode). */
    public List<String> jsonPaths() {
        return jsonPaths;
    }

    /** The {@code json_root} path, or null. */
    public String jsonRoot() {
        return jsonRoot;
    }

    /** {@code strip_outer_array}: true only for "true" in any case (BE rule), else false. */
    public boolean stripOuterArray() {
        return stripOuterArray;
    }

    /**
     * {@code partial_update: true} (row mode, PRIMARY KEY tables): the load writes only the columns of its
     * {@code columns} header; other columns of an existing row keep their values, a new key takes their defaults
     * (StarRocks docs, "Change data through loading", partial updates).
     */
    public boolean partialUpdate() {
        return partialUpdate;
    }

    /** {@code strict_mode}: true filters rows with values that fail conversion; false (default) makes them NULL. */
    public boolean strictMode() {
        return strictMode;
    }

    /** The {@code timezone} header, or null; kept for request comparison (the emulator converts no time zones). */
    public String timezone() {
        return timezone;
    }

    /**
     * The same format with other delete semantics (the Doris dialect: {@code __DORIS_DELETE_SIGN__},
     * {@code merge_type}, {@code delete}).
     *
     * @param deleteColumnName the source column whose value 1 deletes the row's key
     * @param tables           the table model whose loads read that column (and may use DELETE/MERGE)
     * @param merge            how rows become upserts or deletes
     * @param condition        for MERGE: the delete condition, a {@code where}-style predicate on the table's
     *                         columns; must be null otherwise
     */
    public StreamLoadFormat withDeletes(String deleteColumnName, KeysType tables,
                                        MergeType merge, String condition) {
        Objects.requireNonNull(deleteColumnName, "deleteColumnName");
        if (!Objects.requireNonNull(tables, "tables").upsertsByKey()) {
            throw new IllegalArgumentException("deletes need a key-upsert table model, got " + tables);
        }
        Objects.requireNonNull(merge, "merge");
        if ((merge == MergeType.MERGE) != (condition != null)) {
            throw new IllegalArgumentException("a delete condition is given exactly for MERGE, got " + merge
                    + " with condition " + condition);
        }
        return new StreamLoadFormat(this, deleteColumnName, tables, merge, condition);
    }

    /** The source column marking deletes ({@code __op} by default). */
    public String deleteColumn() {
        return deleteColumn;
    }

    /** The table model whose loads read {@link #deleteColumn()} (PRIMARY KEY by default). */
    public KeysType deleteTables() {
        return deleteTables;
    }

    /** How rows become upserts or deletes (APPEND by default). */
    public MergeType mergeType() {
        return mergeType;
    }

    /** The MERGE delete condition, or null. */
    public String deleteCondition() {
        return deleteCondition;
    }

    /** {@inheritDoc} Header values are compared as the BE compares its thrift request fields. */
    @Override
    public boolean sameLoadRequest(LoadFormat other) {
        return other instanceof StreamLoadFormat o && requestFields.equals(o.requestFields);
    }

    @Override
    public String toString() {
        return "StreamLoadFormat" + requestFields;
    }
}
