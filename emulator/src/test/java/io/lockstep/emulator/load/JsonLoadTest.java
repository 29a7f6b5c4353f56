package io.lockstep.emulator.load;

import static io.lockstep.emulator.load.LoadFixture.parse;
import static io.lockstep.emulator.load.LoadFixture.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class JsonLoadTest {

    @Test
    void simpleModeMapsKeysCaseInsensitivelyAndIgnoresUnknownKeys() throws LoadFormatException {
        ParsedBatch batch = parse("orders", """
                [{"ORDER_ID": 1, "Status": "new", "total": 12.5, "extra": true},
                 {"order_id": "2", "created": "2024-01-02 03:04:05"}]
                """, "format", "json", "strip_outer_array", "true");
        assertThat(batch.totalRows()).isEqualTo(2);
        assertThat(batch.filteredRows()).isZero();
        assertThat(values(batch.rows().get(0))).containsExactly(1L, "new", new BigDecimal("12.50"), null);
        assertThat(values(batch.rows().get(1)))
                .containsExactly(2L, null, null, LocalDateTime.of(2024, 1, 2, 3, 4, 5));
    }

    @Test
    void aSingleObjectBodyIsOneRow() throws LoadFormatException {
        ParsedBatch batch = parse("orders", "{\"order_id\": 9}", "format", "json");
        assertThat(batch.rows()).hasSize(1);
        assertThat(batch.rows().get(0).values()[0]).isEqualTo(9L);
    }

    @Test
    void severalTopLevelValuesAreRead() throws LoadFormatException {
        ParsedBatch objects = parse("orders", "{\"order_id\": 1}\n{\"order_id\": 2}\n", "format", "json");
        assertThat(objects.rows()).extracting(r -> r.values()[0]).containsExactly(1L, 2L);
        ParsedBatch arrays = parse("orders", "[{\"order_id\": 1}] [{\"order_id\": 2}]", "format", "json",
                "strip_outer_array", "true");
        assertThat(arrays.rows()).extracting(r -> r.values()[0]).containsExactly(1L, 2L);
    }

    @Test
    void shapeMismatchWithStripOuterArrayIsFiltered() throws LoadFormatException {
        ParsedBatch array = parse("orders", "[{\"order_id\": 1}]", "format", "json");
        assertThat(array.filteredRows()).isEqualTo(1);
        assertThat(array.errorRows()).containsExactly(
                "Error: JSON data is an array, strip_outer_array must be set true. Row: [{\"order_id\":1}]");
        ParsedBatch object = parse("orders", "{\"order_id\": 1}", "format", "json", "strip_outer_array", "true",
                "json_root", "$");
        assertThat(object.errorRows()).containsExactly(
                "Error: JSON data is not an array, strip_outer_array must be set false. Row: {\"order_id\":1}");
        ParsedBatch scalar = parse("orders", "[1, {\"order_id\": 2}]", "format", "json", "strip_outer_array", "true");
        assertThat(scalar.totalRows()).isEqualTo(2);
        assertThat(scalar.rows()).hasSize(1);
        assertThat(scalar.errorRows()).containsExactly(
                "Error: JSON value is not an object: expected one row as a JSON object. Row: 1");
    }

    @Test
    void malformedJsonIsAFilteredRecordAndRowsBeforeItAreKept() throws LoadFormatException {
        ParsedBatch batch = parse("orders", "[{\"order_id\": 1}, {\"order_id\": 2,]", "format", "json",
                "strip_outer_array", "true");
        assertThat(batch.rows()).extracting(r -> r.values()[0]).containsExactly(1L);
        assertThat(batch.filteredRows()).isEqualTo(1);
        assertThat(batch.errorRows()).singleElement().asString()
                .startsWith("Error: Malformed JSON: ")
                .endsWith(". Row: [{\"order_id\": 1}, {\"order_id\": 2,]");
        ParsedBatch garbage = parse("orders", "not json", "format", "json");
        assertThat(garbage.totalRows()).isEqualTo(1);
        assertThat(garbage.filteredRows()).isEqualTo(1);
    }

    @Test
    void missingKeyColumnFilters() throws LoadFormatException {
        ParsedBatch batch = parse("orders", "[{\"status\": \"x\"}]", "format", "json", "strip_outer_array", "true");
        assertThat(batch.errorRows()).containsExactly(
                "Error: NULL value in non-nullable column 'order_id'. Row: {\"status\":\"x\"}");
    }

    @Test
    void opKeyIsPickedUpInSimpleModeOnPrimaryKeyTables() throws LoadFormatException {
        ParsedBatch batch = parse("orders", """
                [{"order_id": 1, "__op": 0}, {"order_id": 2, "__op": 1}, {"order_id": 3, "__op": "1"},
                 {"order_id": 4}, {"order_id": 5, "__op": null}, {"order_id": 6, "__op": 7}]
                """, "format", "json", "strip_outer_array", "true");
        assertThat(batch.rows()).extracting(RowChange::delete).containsExactly(false, true, true, false, false);
        assertThat(batch.errorRows()).containsExactly("Error: Invalid __op value '7': expected 0 (upsert) or 1"
                + " (delete). Row: {\"order_id\":6,\"__op\":7}");
        ParsedBatch duplicate = parse("logs", "{\"id\": 1, \"level\": 1, \"__op\": 1}", "format", "json");
        assertThat(duplicate.rows().get(0).delete()).as("__op means nothing on DUPLICATE KEY tables").isFalse();
    }

    @Test
    void columnsHeaderInSimpleModeNamesKeysAndMustListOp() throws LoadFormatException {
        ParsedBatch batch = parse("orders", "{\"id\": 3, \"s\": \"x\", \"__op\": 1}", "format", "json",
                "columns", "id, s, order_id = id, status = s");
        assertThat(values(batch.rows().get(0))).containsExactly(3L, "x", null, null);
        assertThat(batch.rows().get(0).delete()).as("__op is read only when the columns header lists it").isFalse();
        ParsedBatch withOp = parse("orders", "{\"order_id\": 3, \"__op\": 1}", "format", "json",
                "columns", "order_id, __op");
        assertThat(withOp.rows().get(0).delete()).isTrue();
    }

    @Test
    void jsonPathsMatchedModeWithAndWithoutColumns() throws LoadFormatException {
        ParsedBatch byTableOrder = parse("orders", "{\"a\": {\"id\": 4, \"tags\": [\"x\", \"y\"]}}", "format", "json",
                "jsonpaths", "[\"$.a.id\", \"$.a.tags[1]\", \"$.nothing\", \"$['a']['when']\"]");
        assertThat(values(byTableOrder.rows().get(0))).containsExactly(4L, "y", null, null);
        ParsedBatch withColumns = parse("orders", "[{\"a\": {\"id\": 4}, \"op\": 1}]", "format", "json",
                "strip_outer_array", "true", "jsonpaths", "[\"$.a.id\", \"$.op\"]", "columns", "order_id, __op");
        assertThat(withColumns.rows().get(0).delete()).isTrue();
        assertThatThrownBy(() -> parse("orders", "{}", "format", "json", "jsonpaths", "[\"$.a\"]"))
                .isInstanceOfSatisfying(LoadFormatException.class,
                        e -> assertThat(e.statusCode()).isEqualTo("ANALYSIS_ERROR"))
                .hasMessage("jsonpaths has 1 paths but the load has 4 source columns [order_id, status, total,"
                        + " created]; give one path per source column");
    }

    @Test
    void jsonRootSelectsTheRows() throws LoadFormatException {
        ParsedBatch batch = parse("orders", "{\"meta\": 1, \"data\": [{\"order_id\": 1}, {\"order_id\": 2}]}",
                "format", "json", "json_root", "$.data", "strip_outer_array", "true");
        assertThat(batch.rows()).extracting(r -> r.values()[0]).containsExactly(1L, 2L);
        ParsedBatch missing = parse("orders", "{\"meta\": 1}", "format", "json", "json_root", "$.data");
        assertThat(missing.errorRows()).containsExactly(
                "Error: json_root $.data selects nothing in this document. Row: {\"meta\":1}");
    }

    @Test
    void convertsEveryType() throws LoadFormatException {
        ParsedBatch batch = parse("types", """
                {"k": 1, "b": true, "ti": -128, "si": "32767", "i": 7.9, "bi": 9223372036854775807,
                 "li": "170141183460469231731687303715884105727", "f": 1.5, "db": "2.5e3", "dec": 123.456,
                 "c": "abc", "vc": "abcd", "s": "text", "dt": "2024-02-29", "ts": "2024-01-02T03:04:05.123",
                 "j": {"x": [1, 2]}}
                """, "format", "json", "strict_mode", "true");
        assertThat(batch.errorRows()).isEmpty();
        assertThat(values(batch.rows().get(0))).containsExactly(1, true, (byte) -128, (short) 32767, 7,
                Long.MAX_VALUE, BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE), 1.5f, 2500.0,
                new BigDecimal("123.46"), "abc", "abcd", "text", LocalDate.of(2024, 2, 29),
                LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_000_000), "{\"x\":[1,2]}");
    }

    @Test
    void strictModeFiltersEachKindOfConversionFailure() throws LoadFormatException {
        String[] bad = {
            "\"b\": \"maybe\"", "\"ti\": 128", "\"si\": -32769", "\"i\": 2147483648", "\"bi\": \"1e3\"",
            "\"li\": \"170141183460469231731687303715884105728\"", "\"f\": 1e39", "\"db\": \"1.5d\"",
            "\"dec\": 1000", "\"c\": \"abcd\"", "\"vc\": \"abcde\"", "\"dt\": \"2024-13-01\"",
            "\"ts\": \"yesterday\""
        };
        for (String field : bad) {
            ParsedBatch strict = parse("types", "{\"k\": 1, " + field + "}", "format", "json", "strict_mode", "true");
            assertThat(strict.filteredRows()).as(field).isEqualTo(1);
            ParsedBatch lenient = parse("types", "{\"k\": 1, " + field + "}", "format", "json");
            assertThat(lenient.filteredRows()).as(field).isZero();
            assertThat(lenient.rows().get(0).values()).as(field).containsOnly(1, null);
        }
    }

    @Test
    void csvTextIntoJsonColumnMustBeJson() throws LoadFormatException {
        ParsedBatch batch = parse("types", "1\t{\"a\": 1}\n2\t{oops\n", "columns", "k, j", "strict_mode", "true");
        assertThat(batch.rows()).hasSize(1);
        assertThat(batch.rows().get(0).values()[15]).isEqualTo("{\"a\":1}");
        assertThat(batch.errorRows()).containsExactly(
                "Error: '{oops' is not valid JSON. Row: 2\t{oops");
    }

    @Test
    void streamedArrayRowsEqualTreeReadRows() throws LoadFormatException {
        String row = """
                {"k": 1, "b": false, "ti": 1, "si": 2, "i": 3, "bi": 12345678901, "li": 170141183460469231731687303715884105727,
                 "f": 0.25, "db": 1e3, "dec": 12.50, "c": "a", "vc": "b", "s": {"nested": [1, {"x": null}]},
                 "dt": "2024-01-01", "ts": "2024-01-01 00:00:00", "j": "text", "unknown": {"skip": [1, 2]},
                 "K": 2}
                """;
        ParsedBatch tree = parse("types", row, "format", "json");
        ParsedBatch streamed = parse("types", "[" + row + "]", "format", "json", "strip_outer_array", "true");
        assertThat(tree.errorRows()).isEmpty();
        assertThat(values(streamed.rows().get(0))).isEqualTo(values(tree.rows().get(0)));
        assertThat(values(streamed.rows().get(0))).startsWith(2, false)
                .contains("{\"nested\":[1,{\"x\":null}]}", "\"text\"", new BigDecimal("12.50"));
    }
}
