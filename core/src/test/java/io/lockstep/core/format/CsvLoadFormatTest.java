package io.lockstep.core.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.buffer.Chunk;
import io.lockstep.core.buffer.RegionKey;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * CSV records of JSON object rows: fields in the table's column order, {@code \N} for NULL, the {@code columns} header
 * sent with the loads, and a value that the server would split refused in one line naming table and column.
 */
class CsvLoadFormatTest {
    private static final Map<String, String> NO_HEADERS = Map.of();

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String encoded(CsvLoadFormat csv, String row) {
        return new String(csv.encodeRow("db", "t", bytes(row), NO_HEADERS), StandardCharsets.UTF_8);
    }

    @Test
    void theFirstRowFixesTheColumnsAndLaterRowsAreWrittenInThatOrder() {
        CsvLoadFormat csv = CsvLoadFormat.fromHeaders(NO_HEADERS);
        assertThat(encoded(csv, "{\"id\":1,\"name\":\"a b\",\"price\":1.50,\"ok\":true,\"__op\":0}"))
                .isEqualTo("1\ta b\t1.50\ttrue\t0");
        assertThat(encoded(csv, "{\"__op\":1,\"ok\":false,\"price\":null,\"NAME\":\"\",\"id\":2}"))
                .isEqualTo("2\t\t\\N\tfalse\t1");
        assertThat(csv.loadHeaders("db", "t", Map.of("format", "csv")))
                .containsEntry("columns", "`id`,`name`,`price`,`ok`,`__op`").containsEntry("format", "csv");
        assertThat(csv.loadHeaders("db", "other", Map.of("format", "csv"))).doesNotContainKey("columns");
    }

    @Test
    void nestedValuesAreWrittenAsTheirJsonText() {
        CsvLoadFormat csv = CsvLoadFormat.fromHeaders(NO_HEADERS);
        assertThat(encoded(csv, "{\"id\":1,\"tags\":[1, 2],\"doc\":{\"k\": \"v\"}}"))
                .isEqualTo("1\t[1,2]\t{\"k\":\"v\"}");
    }

    @Test
    void aConfiguredColumnsHeaderOrdersTheFieldsAndIsNotReplaced() {
        CsvLoadFormat csv = CsvLoadFormat.fromHeaders(Map.of("column_separator", "|"));
        Map<String, String> headers = Map.of("columns", "`b`, a, c = upper(b)");
        assertThat(new String(csv.encodeRow("db", "t", bytes("{\"a\":1,\"b\":\"x\"}"), headers),
                StandardCharsets.UTF_8)).isEqualTo("x|1");
        assertThat(csv.loadHeaders("db", "t", headers)).isSameAs(headers);
    }

    @Test
    void aRowWithAnotherKeyOrAMissingKeyIsRefusedNamingTableAndColumn() {
        CsvLoadFormat csv = CsvLoadFormat.fromHeaders(NO_HEADERS);
        encoded(csv, "{\"id\":1,\"name\":\"a\"}");
        assertThatThrownBy(() -> encoded(csv, "{\"id\":1,\"name\":\"a\",\"extra\":2}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("row for db.t has key 'extra', which is not one of its CSV columns [id, name]");
        assertThatThrownBy(() -> encoded(csv, "{\"id\":1}"))
                .hasMessageStartingWith("row for db.t has no key 'name' of its CSV columns [id, name]");
        assertThatThrownBy(() -> encoded(CsvLoadFormat.fromHeaders(NO_HEADERS), "{\"a`b\":1}"))
                .hasMessageStartingWith("the column 'a`b' of db.t cannot be named in a columns header");
    }

    @Test
    void aValueContainingTheSeparatorOrDelimiterIsRefusedWithoutQuotingIt() {
        CsvLoadFormat csv = CsvLoadFormat.fromHeaders(NO_HEADERS);
        encoded(csv, "{\"id\":1,\"name\":\"a\"}");
        assertThatThrownBy(() -> encoded(csv, "{\"id\":1,\"name\":\"secret\\tvalue\"}"))
                .hasMessageStartingWith("row for db.t: the value of column 'name' contains the CSV column separator")
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> encoded(csv, "{\"id\":1,\"name\":\"line\\nbreak\"}"))
                .hasMessageStartingWith("row for db.t: the value of column 'name' contains the CSV row delimiter");
        assertThatThrownBy(() -> encoded(csv, "{\"id\":1,\"name\":\"\\\\N\"}"))
                .hasMessageContaining("column 'name' is \\N, which CSV loads read as NULL");
    }

    @Test
    void aValueEndingInPartOfASelfOverlappingDelimiterIsRefused() {
        // "xa" + "aa" reads as "x" then "aa": the record would end one byte early
        CsvLoadFormat csv = CsvLoadFormat.fromHeaders(Map.of("row_delimiter", "aa", "column_separator", ","));
        assertThatThrownBy(() -> encoded(csv, "{\"id\":1,\"v\":\"xa\"}")).hasMessageContaining("column 'v'");
        assertThat(encoded(csv, "{\"id\":1,\"v\":\"ax\"}")).isEqualTo("1,ax");
    }

    @Test
    void theBodyEndsEveryRecordWithTheDelimiter() {
        CsvLoadFormat csv = CsvLoadFormat.fromHeaders(Map.of("row_delimiter", "\\x0D0A"));
        Chunk first = new Chunk(new RegionKey(0, "db", "t"), csv.rowSeparator());
        first.append(csv.encodeRow("db", "t", bytes("{\"a\":1}"), NO_HEADERS));
        first.append(csv.encodeRow("db", "t", bytes("{\"a\":2}"), NO_HEADERS));
        Chunk second = new Chunk(new RegionKey(0, "db", "t"), csv.rowSeparator());
        second.append(csv.encodeRow("db", "t", bytes("{\"a\":3}"), NO_HEADERS));
        assertThat(new String(csv.body(List.of(first, second)).toByteArray(), StandardCharsets.UTF_8))
                .isEqualTo("1\r\n2\r\n3\r\n");
        assertThat(csv.starRocksHeaders()).isEqualTo(Map.of("row_delimiter", "\\x0D0A"));
        assertThat(csv.dorisHeaders()).isEqualTo(Map.of("line_delimiter", "\\x0D0A"));
    }

    @Test
    void headersMustKeepTheSinksSeparatorsAndSetNoQuoting() {
        CsvLoadFormat csv = CsvLoadFormat.fromHeaders(Map.of("column_separator", "\\x01"));
        csv.checkHeaders("t", Map.of("format", "CSV", "column_separator", "\\x01"));
        assertThatThrownBy(() -> csv.checkHeaders("load properties of db.t", Map.of("column_separator", ",")))
                .hasMessageStartingWith("load properties of db.t sets column_separator ','");
        assertThatThrownBy(() -> csv.checkHeaders("t", Map.of("column_separator", "\\x01", "enclose", "\"")))
                .hasMessageContaining("sets enclose");
        assertThatThrownBy(() -> csv.checkHeaders("t", Map.of("format", "json")))
                .hasMessageContaining("must have format=csv");
        assertThatThrownBy(() -> CsvLoadFormat.fromHeaders(Map.of("column_separator", "\\t")))
                .hasMessageContaining("a backslash is read only as the \\x hex prefix");
        assertThatThrownBy(() -> CsvLoadFormat.fromHeaders(Map.of("row_delimiter", "\\x0A", "line_delimiter", "|")))
                .hasMessageContaining("differ");
    }

    @Test
    void aTableWhoseFirstRowIsACsvLineTakesTheJobsLinesAsTheyAre() {
        CsvLoadFormat csv = CsvLoadFormat.fromHeaders(NO_HEADERS);
        assertThat(encoded(csv, "1\ta b\t{\"k\":1}")).isEqualTo("1\ta b\t{\"k\":1}");
        assertThat(encoded(csv, "{\"looks\":\"like json\"}")).as("later rows are lines too")
                .isEqualTo("{\"looks\":\"like json\"}");
        Map<String, String> headers = Map.of("format", "csv", "columns", "id,name,doc");
        assertThat(csv.loadHeaders("db", "t", headers)).isSameAs(headers);
        assertThatThrownBy(() -> encoded(csv, "2\tx\n3\ty"))
                .hasMessageStartingWith("row for db.t (7 bytes, a CSV line) contains the row delimiter")
                .hasMessageNotContaining("3\ty");
    }

    @Test
    void aJsonTableRefusesALineAndJsonWithTrailingBytes() {
        CsvLoadFormat csv = CsvLoadFormat.fromHeaders(NO_HEADERS);
        encoded(csv, "{\"id\":1}");
        assertThatThrownBy(() -> encoded(csv, "2")).hasMessageContaining("is not a JSON object, but the table's first "
                + "row was");
        assertThatThrownBy(() -> encoded(csv, "{\"id\":1}\t{\"id\":2}"))
                .hasMessageContaining("more than one JSON value");
    }
}
