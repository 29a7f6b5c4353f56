package io.lockstep.core.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.lockstep.core.buffer.Chunk;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * JSON rows: each row is one JSON object, and a body is the JSON array {@code [row,row,...]} of them, loaded with the
 * headers {@code format: json} and {@code strip_outer_array: true}, so the server reads each element as one row
 * (StarRocks docs "STREAM LOAD", JSON parameters; Doris docs "Stream Load", JSON format). On StarRocks also
 * {@code ignore_json_size: true}: the server otherwise refuses a JSON body over 100 MB, and a body's size is bounded by
 * the sink's own buffer settings instead (as in the StarRocks Flink connector,
 * docs/protocol.md#what-the-official-starrocks-connector-does).
 *
 * <p>The row check is a shape check only (outer braces, no parsing): a malformed row fails its whole load on the
 * server, so the obvious cases are refused before they are buffered. Immutable.
 */
public final class JsonLoadFormat implements LoadFormat {
    /** The one instance. */
    public static final JsonLoadFormat INSTANCE = new JsonLoadFormat();

    /** The {@code format} header value. */
    public static final String NAME = "json";

    private static final Map<String, String> HEADERS = Map.of("format", NAME, "strip_outer_array", "true");
    private static final Map<String, String> STARROCKS_HEADERS = Map.of("ignore_json_size", "true");
    private static final DelimitedBody BODY = new DelimitedBody(bytes("["), bytes(","), bytes("]"));
    /** Never quotes the row in a parse error: messages must not carry row data. */
    private static final JsonFactory PARSER = JsonFactory.builder()
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION).build();

    private JsonLoadFormat() {
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** "a JSON array of rows". */
    @Override
    public String bodyShape() {
        return "a JSON array of rows";
    }

    /** True if the row, without surrounding whitespace, starts with '{' and ends with '}' (no allocation). */
    @Override
    public boolean isWellFormed(byte[] row) {
        int first = 0;
        int last = row.length - 1;
        while (first <= last && Character.isWhitespace(row[first])) {
            first++;
        }
        while (last >= first && Character.isWhitespace(row[last])) {
            last--;
        }
        return first <= last && row[first] == '{' && row[last] == '}';
    }

    @Override
    public IllegalArgumentException malformedRow(byte[] row, String where) {
        return new IllegalArgumentException("row for " + where + " (" + row.length + " bytes) is not a JSON object "
                + "({...}); a malformed row would fail the whole load on the server");
    }

    /** The object's top-level keys, lower case (values are skipped, not read). */
    @Override
    public SortedSet<String> columnNames(byte[] row, String where) {
        TreeSet<String> keys = new TreeSet<>();
        try (JsonParser parser = PARSER.createParser(row)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("row for " + where + " is not a JSON object");
            }
            for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
                keys.add(parser.currentName().toLowerCase(Locale.ROOT));
                parser.nextToken();
                parser.skipChildren();
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("row for " + where + " (" + row.length + " bytes) is not valid JSON: "
                    + e.getMessage());
        }
        return keys;
    }

    /** {@code ,}: the separator of a JSON array's elements. */
    @Override
    public byte[] rowSeparator() {
        return BODY.separator();
    }

    /** The JSON array {@code [row,row,...]} holding every row of {@code chunks}, in order. */
    @Override
    public LoadBody body(Iterable<Chunk> chunks) {
        return BODY.body(chunks);
    }

    /** {@code format: json}, {@code strip_outer_array: true}. */
    @Override
    public Map<String, String> headers() {
        return HEADERS;
    }

    /** {@code ignore_json_size: true}. */
    @Override
    public Map<String, String> starRocksHeaders() {
        return STARROCKS_HEADERS;
    }

    /**
     * @throws IllegalArgumentException unless the headers say {@code format=json} and {@code strip_outer_array=true}
     *                                  (case-insensitive; a missing {@code format} is the servers' default, csv)
     */
    @Override
    public void checkHeaders(String where, Map<String, String> headers) {
        String format = headers.getOrDefault("format", "csv").toLowerCase(Locale.ROOT);
        String strip = headers.getOrDefault("strip_outer_array", "false").toLowerCase(Locale.ROOT);
        if (!format.equals(NAME) || !strip.equals("true")) {
            throw new IllegalArgumentException(where + " must have format=json and strip_outer_array=true: "
                    + "the engine sends each load as " + bodyShape() + " (found format=" + format
                    + ", strip_outer_array=" + strip + ")");
        }
    }

    @Override
    public String toString() {
        return NAME;
    }
}
