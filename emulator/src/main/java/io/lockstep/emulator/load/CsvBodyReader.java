package io.lockstep.emulator.load;

import java.nio.charset.StandardCharsets;

/**
 * Reads a CSV body the way the StarRocks CSV scanner does (docs/protocol.md#data-formats-and-filtered-rows; docs
 * "STREAM LOAD"): records end with the row delimiter, fields are split by the column separator (both may be several
 * bytes), {@code \N} is NULL and an empty field is an empty string; empty records are skipped; a record whose field
 * count differs from the number of source columns is filtered with "Value count does not match column count".
 *
 * <p>A final fragment not ended by the row delimiter is read as a record, as the BE does at the end of its input. In a
 * real transaction the bodies of successive loads are one stream, so such a fragment is continued by the next load
 * (docs/protocol.md#data-formats-and-filtered-rows: clients must end every record, including the last, with the row
 * delimiter); {@link LoadStreamCarry} reproduces that across loads.
 *
 * <p>No enclose/escape handling: the transaction load path does not read those headers (docs/protocol.md#load-headers).
 */
final class CsvBodyReader {

    private CsvBodyReader() {
    }

    /** Reads every record of the body into {@code out}; never throws for bad data. */
    static void read(byte[] body, StreamLoadFormat format, LoadPlan plan, BatchCollector out) {
        byte[] rowDelimiter = format.rowDelimiter().bytes();
        byte[] separator = format.columnSeparator().bytes();
        int expected = plan.sourceNames().size();
        int start = 0;
        while (start < body.length) {
            int end = indexOf(body, rowDelimiter, start, body.length);
            int recordEnd = end < 0 ? body.length : end;
            if (recordEnd > start) {
                readRecord(body, start, recordEnd, separator, expected, format, plan, out);
            }
            start = end < 0 ? body.length : end + rowDelimiter.length;
        }
    }

    private static void readRecord(byte[] body, int start, int end, byte[] separator, int expected,
                                   StreamLoadFormat format, LoadPlan plan, BatchCollector out) {
        Object[] values = new Object[expected];
        int count = 0;
        int fieldStart = start;
        while (true) {
            int sep = indexOf(body, separator, fieldStart, end);
            int fieldEnd = sep < 0 ? end : sep;
            if (count < expected) {
                values[count] = field(body, fieldStart, fieldEnd);
            }
            count++;
            if (sep < 0) {
                break;
            }
            fieldStart = sep + separator.length;
        }
        if (count != expected) {
            String record = new String(body, start, end - start, StandardCharsets.UTF_8);
            out.filtered("Value count does not match column count. Expect " + expected + ", but got " + count
                    + ". Column delimiter: " + format.columnSeparator().describe() + ",Row delimiter: "
                    + format.rowDelimiter().describe(), record);
            return;
        }
        try {
            out.loaded(plan.assemble(values));
        } catch (ValueConversionException e) {
            out.filtered(e.getMessage(), new String(body, start, end - start, StandardCharsets.UTF_8));
        }
    }

    private static String field(byte[] body, int start, int end) {
        if (end - start == 2 && body[start] == '\\' && body[start + 1] == 'N') {
            return null;
        }
        return new String(body, start, end - start, StandardCharsets.UTF_8);
    }

    /** Last index of {@code needle} in {@code haystack}, or -1. */
    static int lastIndexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = haystack.length - needle.length; i >= 0; i--) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** First index of {@code needle} in {@code haystack[from, to)}, or -1. */
    static int indexOf(byte[] haystack, byte[] needle, int from, int to) {
        byte first = needle[0];
        int last = to - needle.length;
        outer:
        for (int i = from; i <= last; i++) {
            if (haystack[i] != first) {
                continue;
            }
            for (int j = 1; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
