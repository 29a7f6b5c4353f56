package io.lockstep.emulator.load;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Reads a JSON body the way the StarRocks JSON scanner does (docs/protocol.md#data-formats-and-filtered-rows; docs
 * "STREAM LOAD", JSON): the body holds one or more JSON values; with {@code strip_outer_array: true} each value must be
 * an array whose elements are the rows, otherwise each value must be an object that is one row. {@code json_root} first
 * selects a sub-document. Simple mode (no {@code jsonpaths}) maps keys to source columns case-insensitively; matched
 * mode takes source column i from {@code jsonpaths[i]}. Absent keys are NULL.
 *
 * <p>Data problems are filtered records, never exceptions: a document that is not valid JSON (one filtered record
 * for everything from the syntax error on, shown as the body's first 4096 characters; rows read before it are
 * kept), an array without {@code strip_outer_array}, an object with it, a row that is not an object, a
 * {@code json_root} that selects nothing.
 */
final class JsonBodyReader {
    /** Decimals are kept exactly as written (no trailing zeros stripped), as StarRocks reads the text. */
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));

    private JsonBodyReader() {
    }

    /** Reads every row of the body into {@code out}. */
    static void read(byte[] body, StreamLoadFormat format, LoadPlan plan, BatchCollector out)
            throws LoadFormatException {
        List<JsonPath> paths = null;
        if (format.jsonPaths() != null) {
            if (format.jsonPaths().size() != plan.sourceNames().size()) {
                throw new LoadFormatException("ANALYSIS_ERROR", "jsonpaths has " + format.jsonPaths().size()
                        + " paths but the load has " + plan.sourceNames().size() + " source columns "
                        + plan.sourceNames() + "; give one path per source column");
            }
            paths = new java.util.ArrayList<>();
            for (String path : format.jsonPaths()) {
                paths.add(JsonPath.parse(path));
            }
        }
        JsonPath root = format.jsonRoot() == null ? null : JsonPath.parse(format.jsonRoot());
        try (JsonParser parser = JSON.getFactory().createParser(body)) {
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                if (root == null && format.stripOuterArray() && token == JsonToken.START_ARRAY) {
                    // Stream the elements so a large array is never held as one tree.
                    while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
                        if (token == null) {
                            out.filtered("Malformed JSON: the body ends inside an array", tail(body));
                            return;
                        }
                        if (paths == null && token == JsonToken.START_OBJECT) {
                            readObjectStreaming(parser, body, plan, out);
                        } else {
                            readRow(JSON.readTree(parser), paths, plan, out);
                        }
                    }
                    continue;
                }
                JsonNode document = JSON.readTree(parser);
                readDocument(document, root, format.stripOuterArray(), paths, plan, out);
            }
        } catch (IOException e) {
            out.filtered("Malformed JSON: " + firstLine(e.getMessage()), tail(body));
        }
    }

    private static void readDocument(JsonNode document, JsonPath root, boolean stripOuterArray, List<JsonPath> paths,
                                     LoadPlan plan, BatchCollector out) {
        JsonNode node = document;
        if (root != null) {
            node = root.select(document);
            if (node == null || node.isMissingNode() || node.isNull()) {
                out.filtered("json_root " + root.text() + " selects nothing in this document", document.toString());
                return;
            }
        }
        if (stripOuterArray) {
            if (!node.isArray()) {
                out.filtered("JSON data is not an array, strip_outer_array must be set false", node.toString());
                return;
            }
            for (JsonNode element : node) {
                readRow(element, paths, plan, out);
            }
        } else {
            if (node.isArray()) {
                out.filtered("JSON data is an array, strip_outer_array must be set true", node.toString());
                return;
            }
            readRow(node, paths, plan, out);
        }
    }

    /**
     * Simple mode without a tree: reads the fields of the object at the parser's START_OBJECT straight into the
     * source values (nested objects and arrays become trees). Gives the same values as {@link #readRow}; a
     * filtered row's text is re-read from the body only then.
     */
    private static void readObjectStreaming(JsonParser parser, byte[] body, LoadPlan plan, BatchCollector out)
            throws IOException {
        long start = parser.currentTokenLocation().getByteOffset();
        Object[] values = new Object[plan.sourceNames().size()];
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            int index = plan.sourceIndex(parser.currentName());
            JsonToken value = parser.nextToken();
            if (index < 0) {
                parser.skipChildren();
                continue;
            }
            values[index] = switch (value) {
                case VALUE_STRING -> TextNode.valueOf(parser.getText());
                case VALUE_NUMBER_INT -> switch (parser.getNumberType()) {
                    case INT -> IntNode.valueOf(parser.getIntValue());
                    case LONG -> LongNode.valueOf(parser.getLongValue());
                    default -> BigIntegerNode.valueOf(parser.getBigIntegerValue());
                };
                case VALUE_NUMBER_FLOAT -> DecimalNode.valueOf(parser.getDecimalValue());
                case VALUE_TRUE -> BooleanNode.TRUE;
                case VALUE_FALSE -> BooleanNode.FALSE;
                case VALUE_NULL -> null;
                default -> JSON.readTree(parser);
            };
        }
        try {
            out.loaded(plan.assemble(values));
        } catch (ValueConversionException e) {
            long end = parser.currentLocation().getByteOffset();
            String raw = new String(body, (int) start, (int) (end - start), StandardCharsets.UTF_8);
            out.filtered(e.getMessage(), JSON.readTree(raw).toString());
        }
    }

    private static void readRow(JsonNode row, List<JsonPath> paths, LoadPlan plan, BatchCollector out) {
        if (!row.isObject()) {
            out.filtered("JSON value is not an object: expected one row as a JSON object", row.toString());
            return;
        }
        Object[] values = new Object[plan.sourceNames().size()];
        if (paths != null) {
            for (int i = 0; i < values.length; i++) {
                values[i] = paths.get(i).select(row);
            }
        } else {
            Iterator<Map.Entry<String, JsonNode>> fields = row.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                int index = plan.sourceIndex(field.getKey());
                if (index >= 0) {
                    values[index] = field.getValue();
                }
            }
        }
        try {
            out.loaded(plan.assemble(values));
        } catch (ValueConversionException e) {
            out.filtered(e.getMessage(), row.toString());
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable input";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    private static String tail(byte[] body) {
        int length = Math.min(body.length, BatchCollector.MAX_RECORD_CHARS);
        return new String(body, 0, length, StandardCharsets.UTF_8);
    }
}
