package io.lockstep.core.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes one JSON object row as one CSV record of a table's columns (StarRocks docs "STREAM LOAD", CSV parameters;
 * docs/protocol.md#data-formats-and-filtered-rows): the fields in the columns' order, joined by the column separator,
 * {@code \N} for a JSON null, a string's characters as they are, a number as written in the row, {@code true} /
 * {@code false}, and an object or array as its compact JSON text (a JSON or ARRAY column reads that text).
 *
 * <p>StarRocks' transaction stream load reads no {@code enclose} or {@code escape} (docs/protocol.md#load-headers), so
 * nothing can be quoted: a value whose bytes would be read as a separator or a row delimiter (checked by reading the
 * record back as the server splits it), or a string that is exactly {@code \N} (it would load as NULL), is refused in
 * one line naming the table and the column, never the value. A row whose keys are not exactly the table's columns is
 * refused likewise: a missing key has no field to write, an extra key would be dropped. Immutable.
 */
final class CsvRecordEncoder {
    private static final byte[] NULL = {'\\', 'N'};
    private static final byte[] TRUE = "true".getBytes(StandardCharsets.UTF_8);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.UTF_8);
    /** Never quotes the row in a parse error: messages must not carry row data. */
    private static final JsonFactory PARSER = JsonFactory.builder()
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION).build();
    private static final ObjectMapper TREES = new ObjectMapper(PARSER);

    private final CsvDelimiter separator;
    private final CsvDelimiter delimiter;

    CsvRecordEncoder(CsvDelimiter separator, CsvDelimiter delimiter) {
        this.separator = separator;
        this.delimiter = delimiter;
    }

    /**
     * The row's top-level keys in their order.
     *
     * @throws IllegalArgumentException naming {@code where} if the row is not a JSON object
     */
    static List<String> keys(byte[] row, String where) {
        List<String> keys = new ArrayList<>();
        try (JsonParser parser = PARSER.createParser(row)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw notAnObject(row, where, "not a JSON object");
            }
            for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
                keys.add(parser.currentName());
                parser.nextToken();
                parser.skipChildren();
            }
            checkNothingFollows(parser, row, where);
        } catch (IOException e) {
            throw notAnObject(row, where, "not valid JSON: " + e.getMessage());
        }
        return keys;
    }

    /**
     * The CSV record (without the row delimiter) of {@code row} for {@code columns}.
     *
     * @param where names the row's target in messages, e.g. "db.orders"
     * @throws IllegalArgumentException naming {@code where} and the column (never a value) as described above
     */
    byte[] encode(byte[] row, CsvColumns columns, String where) {
        byte[][] fields = new byte[columns.size()][];
        try (JsonParser parser = PARSER.createParser(row)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw notAnObject(row, where, "not a JSON object");
            }
            for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
                String key = parser.currentName();
                int index = columns.indexOf(key);
                if (index < 0) {
                    throw new IllegalArgumentException("row for " + where + " has key '" + key + "', which is not one"
                            + " of its CSV columns " + columns.names() + describeOrigin(columns) + "; a CSV load "
                            + "carries one column list per table, and the value would be dropped");
                }
                if (fields[index] != null) {
                    throw new IllegalArgumentException("row for " + where + " has column '" + columns.name(index)
                            + "' twice (keys are compared ignoring case)");
                }
                fields[index] = value(parser, parser.nextToken(), columns.name(index), where);
            }
            checkNothingFollows(parser, row, where);
        } catch (IOException e) {
            throw notAnObject(row, where, "not valid JSON: " + e.getMessage());
        }
        ByteArrayOutputStream record = new ByteArrayOutputStream(row.length);
        int[] ends = new int[fields.length];
        for (int i = 0; i < fields.length; i++) {
            if (fields[i] == null) {
                throw new IllegalArgumentException("row for " + where + " has no key '" + columns.name(i) + "' of its "
                        + "CSV columns " + columns.names() + describeOrigin(columns) + "; a CSV record needs every "
                        + "field (send null for NULL)");
            }
            if (i > 0) {
                record.writeBytes(separator.bytes());
            }
            record.writeBytes(fields[i]);
            ends[i] = record.size();
        }
        byte[] bytes = record.toByteArray();
        if (bytes.length == 0) {
            throw new IllegalArgumentException("row for " + where + " is one empty string in column '"
                    + columns.name(0) + "': its CSV record would be an empty line, which the server skips");
        }
        checkSplitsBack(bytes, ends, columns, where);
        return bytes;
    }

    private static byte[] value(JsonParser parser, JsonToken token, String column, String where)
            throws IOException {
        return switch (token) {
            case VALUE_NULL -> NULL;
            case VALUE_TRUE -> TRUE;
            case VALUE_FALSE -> FALSE;
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> parser.getText().getBytes(StandardCharsets.UTF_8);
            case VALUE_STRING -> {
                String text = parser.getText();
                if (text.equals("\\N")) {
                    throw new IllegalArgumentException("row for " + where + ": the string value of column '" + column
                            + "' is \\N, which CSV loads read as NULL; send it with sink.properties.format=json");
                }
                yield text.getBytes(StandardCharsets.UTF_8);
            }
            case START_OBJECT, START_ARRAY -> TREES.writeValueAsBytes(TREES.readTree(parser));
            default -> throw new IllegalArgumentException("row for " + where + ": column '" + column
                    + "' has an unexpected JSON token " + token);
        };
    }

    /**
     * Reads the record back as the server does (records end at the first row delimiter, fields at each separator) and
     * refuses it, naming the first column whose field would not come back whole.
     */
    private void checkSplitsBack(byte[] record, int[] ends, CsvColumns columns, String where) {
        byte[] withDelimiter = new byte[record.length + delimiter.bytes().length];
        System.arraycopy(record, 0, withDelimiter, 0, record.length);
        System.arraycopy(delimiter.bytes(), 0, withDelimiter, record.length, delimiter.bytes().length);
        int recordEnd = indexOf(withDelimiter, delimiter.bytes(), 0, withDelimiter.length);
        int start = 0;
        for (int i = 0; i < ends.length; i++) {
            int sep = indexOf(record, separator.bytes(), start, Math.min(recordEnd, record.length));
            int fieldEnd = sep < 0 ? Math.min(recordEnd, record.length) : sep;
            if (fieldEnd != ends[i] || (i == ends.length - 1) != (sep < 0)) {
                String found = indexOf(record, separator.bytes(), start, Math.min(ends[i], record.length)) >= 0
                        ? "column separator (" + separator + ")" : "row delimiter (" + delimiter + ")";
                throw new IllegalArgumentException("row for " + where + ": the value of column '" + columns.name(i)
                        + "' contains the CSV " + found + ", which stream load cannot escape (the transaction load reads no enclose/escape), so the "
                        + "row would be split; choose a separator no value contains (e.g. "
                        + "sink.properties.column_separator=\\x01) or use sink.properties.format=json");
            }
            start = fieldEnd + separator.bytes().length;
        }
    }

    /** Refuses bytes after the row's object: the JSON format would send them, and the server refuse the load. */
    private static void checkNothingFollows(JsonParser parser, byte[] row, String where) throws IOException {
        if (parser.nextToken() != null) {
            throw notAnObject(row, where, "more than one JSON value");
        }
    }

    /**
     * Checks a CSV line the job gave (sent as it is): it must not contain the row delimiter, which would make it
     * several records.
     *
     * @throws IllegalArgumentException naming {@code where}, never the line
     */
    void checkGivenLine(byte[] line, String where) {
        if (indexOf(line, delimiter.bytes(), 0, line.length) >= 0) {
            throw new IllegalArgumentException("row for " + where + " (" + line.length + " bytes, a CSV line) contains "
                    + "the row delimiter (" + delimiter + "), so it would load as several records; give one record "
                    + "per row, without the delimiter (the sink ends each record with it)");
        }
    }

    private static String describeOrigin(CsvColumns columns) {
        return columns.isConfigured() ? " (its columns header)" : " (fixed by the table's first row)";
    }

    private static IllegalArgumentException notAnObject(byte[] row, String where, String what) {
        return new IllegalArgumentException("row for " + where + " (" + row.length + " bytes) is " + what
                + "; the sink writes each JSON object row as one CSV record");
    }

    /** First index of {@code needle} in {@code haystack[from, to)}, or -1. */
    static int indexOf(byte[] haystack, byte[] needle, int from, int to) {
        outer:
        for (int i = from; i <= to - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
