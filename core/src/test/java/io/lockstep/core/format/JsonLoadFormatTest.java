package io.lockstep.core.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.buffer.Chunk;
import io.lockstep.core.buffer.RegionKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonLoadFormatTest {
    private static final JsonLoadFormat JSON = JsonLoadFormat.INSTANCE;
    private static final RegionKey KEY = new RegionKey(0, "db", "orders");

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The body as the sinks always sent it: '[', the rows of every chunk joined by ',', ']'. */
    @Test
    void aBodyOfSeveralChunksIsByteForByteTheJsonArrayOfTheirRows() {
        List<String> rows = new ArrayList<>();
        List<Chunk> chunks = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            Chunk chunk = new Chunk(KEY, JSON.rowSeparator());
            for (int i = 0; c != 1 && i < 40; i++) { // chunk 1 stays empty: it adds no separator
                String row = "{\"c\":" + c + ",\"i\":" + i + ",\"v\":\"" + "é".repeat(i * 7) + "\"}";
                chunk.append(b(row));
                rows.add(row);
            }
            chunk.freeze(c + 1);
            chunks.add(chunk);
        }
        byte[] expected = b("[" + String.join(",", rows) + "]");

        byte[] body = JSON.body(chunks).toByteArray();

        assertThat(body).isEqualTo(expected);
        assertThat(JSON.body(chunks).contentLength()).isEqualTo(expected.length);
        assertThat(JSON.body(List.of(new Chunk(KEY, JSON.rowSeparator()))).toByteArray()).isEqualTo(b("[]"));
    }

    @Test
    void theHeadersAreTheOnesTheSinksSentForJson() {
        assertThat(JSON.name()).isEqualTo("json");
        assertThat(JSON.headers()).isEqualTo(Map.of("format", "json", "strip_outer_array", "true"));
        assertThat(JSON.starRocksHeaders()).isEqualTo(Map.of("ignore_json_size", "true"));
        assertThat(JSON.rowSeparator()).isEqualTo(b(","));
    }

    @Test
    void onlyARowInBracesIsWellFormedAndTheErrorNamesTheTargetNotTheRow() {
        assertThat(JSON.isWellFormed(b(" {\"a\":1}\n"))).isTrue();
        assertThat(JSON.isWellFormed(b("[1]"))).isFalse();
        assertThat(JSON.isWellFormed(b("  "))).isFalse();
        assertThat(JSON.malformedRow(b("secret=1"), "db.orders")).hasMessage("row for db.orders (8 bytes) is not a "
                + "JSON object ({...}); a malformed row would fail the whole load on the server");
    }

    @Test
    void columnNamesAreTheTopLevelKeysLowerCasedAndABadRowIsNamedByTargetAndLength() {
        assertThat(JSON.columnNames(b("{\"Id\":1,\"a\":{\"x\":[1]},\"B\":null}"), "db.t"))
                .containsExactly("a", "b", "id");
        assertThatThrownBy(() -> JSON.columnNames(b("[{\"a\":1}]"), "db.t"))
                .hasMessage("row for db.t is not a JSON object");
        assertThatThrownBy(() -> JSON.columnNames(b("{\"secret\":tru"), "db.t"))
                .hasMessageStartingWith("row for db.t (13 bytes) is not valid JSON: ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret"));
    }

    @Test
    void headersThatNoLongerDeclareJsonArraysAreRefusedNamingWhere() {
        JSON.checkHeaders("t", Map.of("format", "JSON", "strip_outer_array", "True"));
        assertThatThrownBy(() -> JSON.checkHeaders("load properties of db.orders", Map.of("format", "json")))
                .hasMessage("load properties of db.orders must have format=json and strip_outer_array=true: the "
                        + "engine sends each load as a JSON array of rows "
                        + "(found format=json, strip_outer_array=false)");
    }
}
