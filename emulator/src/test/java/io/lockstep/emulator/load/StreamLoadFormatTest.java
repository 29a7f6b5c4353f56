package io.lockstep.emulator.load;

import static io.lockstep.emulator.load.LoadFixture.headers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StreamLoadFormatTest {

    private static StreamLoadFormat format(String... namesAndValues) throws LoadFormatException {
        return (StreamLoadFormat) LoadFormat.fromHeaders(headers(namesAndValues));
    }

    private static void assertRejected(String status, String message, String... namesAndValues) {
        assertThatThrownBy(() -> format(namesAndValues))
                .isInstanceOfSatisfying(LoadFormatException.class, e -> assertThat(e.statusCode()).isEqualTo(status))
                .hasMessage(message);
    }

    @Test
    void defaultsAreCsvTabNewlineNonStrictRatioZero() throws LoadFormatException {
        StreamLoadFormat format = format();
        assertThat(format.formatName()).isEqualTo("csv");
        assertThat(format.columnSeparator().bytes()).containsExactly('\t');
        assertThat(format.rowDelimiter().bytes()).containsExactly('\n');
        assertThat(format.strictMode()).isFalse();
        assertThat(format.stripOuterArray()).isFalse();
        assertThat(format.maxFilterRatio()).isZero();
        assertThat(format.columns()).isNull();
    }

    @Test
    void headerNamesAreCaseInsensitive() throws LoadFormatException {
        StreamLoadFormat format = format("Format", "JSON", "STRIP_OUTER_ARRAY", "TRUE", "Strict_Mode", "True");
        assertThat(format.isJson()).isTrue();
        assertThat(format.stripOuterArray()).isTrue();
        assertThat(format.strictMode()).isTrue();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '#', value = {
        "\\x01#1",
        "\\x0D0A#13,10",
        "\\X7C7C#124,124",
        ",#44",
        "|#124",
        "\\t#9",
        "ab#97,98"
    })
    void readsSeparatorsIncludingHexAndMultiByte(String header, String described) throws LoadFormatException {
        assertThat(format("column_separator", header).columnSeparator().describe()).isEqualTo(described);
        assertThat(format("row_delimiter", header).rowDelimiter().describe()).isEqualTo(described);
    }

    @Test
    void rejectsBadSeparators() {
        assertRejected("INVALID_ARGUMENT", "invalid column_separator '\\x0G': after \\x give pairs of hex digits",
                "column_separator", "\\x0G");
        assertRejected("INVALID_ARGUMENT", "row_delimiter is 51 bytes long; at most 50 bytes are allowed",
                "row_delimiter", "x".repeat(51));
    }

    @Test
    void strictModeMustBeBoolean() {
        assertRejected("INVALID_ARGUMENT", "Invalid strict mode format. Must be bool type", "strict_mode", "yes");
    }

    @Test
    void stripOuterArrayIsTrueOnlyForTrueAsTheTransactionBeReadsIt() throws LoadFormatException {
        assertThat(format("strip_outer_array", "yes").stripOuterArray()).isFalse();
        assertThat(format("strip_outer_array", "True").stripOuterArray()).isTrue();
    }

    @Test
    void maxFilterRatioIsReadLikeStrtod() throws LoadFormatException {
        assertThat(format("max_filter_ratio", "0.25").maxFilterRatio()).isEqualTo(0.25);
        assertThat(format("max_filter_ratio", "0.5abc").maxFilterRatio()).isEqualTo(0.5);
        assertThat(format("max_filter_ratio", "abc").maxFilterRatio()).isZero();
        assertThat(format("max_filter_ratio", "1e-1").maxFilterRatio()).isEqualTo(0.1);
    }

    @Test
    void rejectsWhatTheBeRejects() {
        assertRejected("INTERNAL_ERROR", "unknown data format, format=parquet", "format", "parquet");
        assertRejected("INVALID_ARGUMENT", "Can not specify both partitions and temporary partitions",
                "partitions", "p1", "temporary_partitions", "tp1");
        assertRejected("INVALID_ARGUMENT", "Only one of http header content-encoding and compression can be set",
                "content-encoding", "gzip", "compression", "lz4");
        assertRejected("INVALID_ARGUMENT", "Invalid load mem limit format", "load_mem_limit", "lots");
        assertRejected("INVALID_ARGUMENT", "load_mem_limit must be equal or greater than 0", "load_mem_limit", "-1");
        assertRejected("INVALID_ARGUMENT", "Invalid load_dop format", "load_dop", "x");
    }

    @Test
    void unsupportedFeaturesFailLoudly() {
        assertRejected("NOT_IMPLEMENTED_ERROR", "partial_update_mode: column (row mode is implemented) is not"
                + " supported by the emulator", "partial_update", "true", "partial_update_mode", "column");
        assertRejected("NOT_IMPLEMENTED_ERROR", "format=deflate (compressed CSV) is not supported by the emulator",
                "format", "deflate");
        assertRejected("NOT_IMPLEMENTED_ERROR", "payload compression (GZIP) with format=csv (documented for JSON; "
                + "compressed CSV is named by format) is not supported by the emulator", "compression", "GZIP");
        assertRejected("NOT_IMPLEMENTED_ERROR", "the expression 'upper(tmp)' in the columns header is not supported"
                + " by the emulator; it evaluates column references and constants only", "columns", "a, b = upper(tmp)");
    }

    @Test
    void parsesJsonPathsAndRoot() throws LoadFormatException {
        StreamLoadFormat format = format("format", "json", "jsonpaths", "[\"$.id\", \"$.a.b[0]\", \"$['x y']\"]",
                "json_root", "$.data");
        assertThat(format.jsonPaths()).containsExactly("$.id", "$.a.b[0]", "$['x y']");
        assertThat(format.jsonRoot()).isEqualTo("$.data");
        assertRejected("INVALID_ARGUMENT", "Invalid json path: {\"a\":1} (jsonpaths must be a JSON array of path"
                + " strings such as [\"$.id\", \"$.name\"])", "format", "json", "jsonpaths", "{\"a\":1}");
        assertRejected("INVALID_ARGUMENT", "Invalid json path: id (the emulator reads $, .name, ['name'] and"
                + " [index])", "format", "json", "jsonpaths", "[\"id\"]");
    }

    @Test
    void parsesColumnsHeader() throws LoadFormatException {
        ColumnsHeader columns = format("columns", " id , `tmp`, status = tmp, total = '1.5', x = NULL, __op = 0")
                .columns();
        assertThat(columns.items()).containsExactly(
                new ColumnsHeader.Item("id", null),
                new ColumnsHeader.Item("tmp", null),
                new ColumnsHeader.Item("status", new ColumnsHeader.ColumnReference("tmp")),
                new ColumnsHeader.Item("total", new ColumnsHeader.Constant("1.5")),
                new ColumnsHeader.Item("x", new ColumnsHeader.Constant(null)),
                new ColumnsHeader.Item("__op", new ColumnsHeader.Constant("0")));
        assertRejected("ANALYSIS_ERROR", "empty item in columns header: 'a,,b'", "columns", "a,,b");
        assertRejected("ANALYSIS_ERROR", "unbalanced quotes or parentheses in columns header: 'a = 'x'",
                "columns", "a = 'x");
    }

    @Test
    void sameLoadRequestComparesTheBeFieldsButNotTheFilterRatio() throws LoadFormatException {
        StreamLoadFormat first = format("format", "json", "strip_outer_array", "true", "max_filter_ratio", "0");
        assertThat(first.sameLoadRequest(format("format", "JSON", "strip_outer_array", "TRUE",
                "max_filter_ratio", "0.9", "label", "other"))).isTrue();
        assertThat(first.sameLoadRequest(format("format", "json"))).isFalse();
        assertThat(first.sameLoadRequest(format("format", "json", "strip_outer_array", "true",
                "columns", "a"))).isFalse();
        assertThat(first.sameLoadRequest(format("format", "json", "strip_outer_array", "true",
                "strict_mode", "false"))).as("an explicit false differs from an absent header in the thrift request")
                .isFalse();
        assertThat(format("partial_update_mode", "bogus").sameLoadRequest(format()))
                .as("the BE ignores an unknown partial_update_mode").isTrue();
        assertThat(format("partial_update_mode", "row").sameLoadRequest(format())).isFalse();
    }
}
