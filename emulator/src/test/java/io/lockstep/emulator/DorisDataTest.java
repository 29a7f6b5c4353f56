package io.lockstep.emulator;

import static io.lockstep.emulator.DorisSchema.csv;
import static io.lockstep.emulator.DorisSchema.h;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.DorisHttp.Resp;
import io.lockstep.emulator.doris.DorisTxnStatus;
import io.lockstep.emulator.load.BodyDecompression;
import io.lockstep.emulator.load.BodyDecompressionTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.support.ClassicRequestBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The data headers of a Doris load (docs/protocol.md#doris-endpoints-redirects-and-headers,
 * #what-the-doris-connector-does): the {@code __DORIS_DELETE_SIGN__} delete sign on UNIQUE KEY tables (in
 * {@code columns}, as a JSON key, through {@code hidden_columns}), {@code merge_type} and {@code delete}, JSON by line,
 * {@code line_delimiter}, {@code where}, {@code max_filter_ratio} with its error log, and gz bodies. Each test starts
 * from empty tables.
 */
class DorisDataTest {
    private static final AtomicInteger SEQ = new AtomicInteger();
    private static final String DDL = """
            CREATE DATABASE d;
            CREATE TABLE d.u (id BIGINT NOT NULL, v VARCHAR(16)) UNIQUE KEY(id)
            DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("replication_num" = "1");
            CREATE TABLE d.dup (id BIGINT NOT NULL, v VARCHAR(16)) DUPLICATE KEY(id)
            DISTRIBUTED BY HASH(id) BUCKETS 1;
            """;
    static DorisEmulator doris;
    static DorisHttp http;
    private int round;

    @BeforeAll
    static void start() throws Exception {
        doris = DorisEmulator.builder().clock(new ManualClock()).build().start();
        http = new DorisHttp(doris.feUrl());
    }

    @AfterAll
    static void stop() throws Exception {
        http.close();
        doris.close();
    }

    /** A fresh database per test: d1, d2, ... with the same tables. */
    @BeforeEach
    void freshTables() throws Exception {
        round = SEQ.incrementAndGet();
        doris.executeDdl(DDL.replace(" d;", " d" + round + ";").replace(" d.", " d" + round + "."));
    }

    String db() {
        return "d" + round;
    }

    Resp load(String table, Map<String, String> headers, String body) {
        Resp r = http.load(db(), table, headers, body);
        return r;
    }

    List<List<Object>> rows(String table) {
        return doris.query("SELECT id, v FROM " + db() + "." + table + " ORDER BY id, v").rows();
    }

    static String label() {
        return "data_" + SEQ.incrementAndGet();
    }

    @Test
    void deleteSignInColumnsDeletesKeysOfAUniqueTable() {
        assertThat(load("u", csv(label()), "1,a\n2,b\n3,c\n").loadStatus()).isEqualTo("Success");
        Resp r = load("u", csv(label(), "columns", "`id`,`v`,`__DORIS_DELETE_SIGN__`"), "2,x,1\n3,z,0\n");
        assertThat(r.loadStatus()).as(r.body()).isEqualTo("Success");
        assertThat(rows("u")).containsExactly(List.of(1L, "a"), List.of(3L, "z"));
    }

    @Test
    void hiddenColumnsAddsATrailingDeleteSignFieldOnUniqueTables() {
        load("u", csv(label()), "1,a\n2,b\n");
        Resp r = load("u", csv(label(), "hidden_columns", "__DORIS_DELETE_SIGN__"), "1,a2,0\n2,b,1\n");
        assertThat(r.loadStatus()).as(r.body()).isEqualTo("Success");
        assertThat(rows("u")).containsExactly(List.of(1L, "a2"));
    }

    @Test
    void hiddenColumnsIsAcceptedAndIgnoredOnDuplicateTables() {
        Resp r = load("dup", csv(label(), "hidden_columns", "__DORIS_DELETE_SIGN__"), "1,a\n1,a\n");
        assertThat(r.loadStatus()).as(r.body()).isEqualTo("Success");
        assertThat(rows("dup")).containsExactly(List.of(1L, "a"), List.of(1L, "a"));
    }

    @Test
    void deleteSignInColumnsOfADuplicateTableIsAnUnusedSource() {
        Resp r = load("dup", csv(label(), "columns", "id,v,__DORIS_DELETE_SIGN__"), "1,a,1\n");
        assertThat(r.loadStatus()).as(r.body()).isEqualTo("Success");
        assertThat(rows("dup")).containsExactly(List.of(1L, "a"));
    }

    @Test
    void jsonByLineReadsTheDeleteSignKey() {
        load("u", csv(label()), "1,a\n2,b\n");
        Resp r = load("u", h("label", label(), "format", "json", "read_json_by_line", "true"),
                "{\"id\":1,\"v\":\"a3\",\"__DORIS_DELETE_SIGN__\":0}\n{\"id\":2,\"v\":\"b\",\"__DORIS_DELETE_SIGN__\":1}\n"
                        + "{\"id\":4,\"v\":\"d\"}\n");
        assertThat(r.loadStatus()).as(r.body()).isEqualTo("Success");
        assertThat(r.json().get("NumberLoadedRows").asLong()).isEqualTo(3);
        assertThat(rows("u")).containsExactly(List.of(1L, "a3"), List.of(4L, "d"));
    }

    @Test
    void jsonArrayWithStripOuterArray() {
        Resp r = load("dup", h("label", label(), "format", "json", "strip_outer_array", "true"),
                "[{\"id\":1,\"v\":\"a\"},{\"id\":2,\"v\":\"b\"}]");
        assertThat(r.loadStatus()).as(r.body()).isEqualTo("Success");
        assertThat(rows("dup")).hasSize(2);
    }

    @Test
    void mergeTypeDeleteDeletesEveryRowsKey() {
        load("u", csv(label()), "1,a\n2,b\n3,c\n");
        Resp r = load("u", csv(label(), "merge_type", "DELETE"), "1,x\n3,y\n");
        assertThat(r.loadStatus()).as(r.body()).isEqualTo("Success");
        assertThat(rows("u")).containsExactly(List.of(2L, "b"));
    }

    @Test
    void mergeTypeMergeDeletesTheRowsMatchingTheDeleteCondition() {
        load("u", csv(label()), "1,a\n2,b\n");
        Resp r = load("u", csv(label(), "merge_type", "MERGE", "delete", "v = 'gone'"), "1,gone\n2,kept\n5,new\n");
        assertThat(r.loadStatus()).as(r.body()).isEqualTo("Success");
        assertThat(rows("u")).containsExactly(List.of(2L, "kept"), List.of(5L, "new"));
    }

    @Test
    void mergeTypeRulesAreChecked() {
        assertThat(load("u", csv(label(), "merge_type", "MERGE"), "1,a\n").message())
                .isEqualTo("[INVALID_ARGUMENT]Excepted DELETE ON clause when merge type is MERGE.");
        assertThat(load("u", csv(label(), "delete", "v = 'a'"), "1,a\n").message())
                .isEqualTo("[INVALID_ARGUMENT]not support DELETE ON clause when merge type is not MERGE.");
        assertThat(load("u", csv(label(), "merge_type", "UPSERT"), "1,a\n").message())
                .startsWith("[INVALID_ARGUMENT]Invalid merge type UPSERT");
        String label = label();
        Resp dup = load("dup", csv(label, "merge_type", "DELETE"), "1,a\n");
        assertThat(dup.loadStatus()).isEqualTo("Fail");
        assertThat(dup.message()).startsWith("[ANALYSIS_ERROR]merge_type DELETE needs a table with a delete sign");
        assertThat(doris.labelState(db(), label)).as("the failed load's txn is aborted")
                .isEqualTo(DorisTxnStatus.ABORTED);
    }

    @Test
    void lineDelimiterAndWhereAreRead() {
        Resp r = load("dup", csv(label(), "line_delimiter", "\\x01", "where", "id > 1"), "1,a\u00012,b\u00013,c\u0001");
        assertThat(r.loadStatus()).as(r.body()).isEqualTo("Success");
        assertThat(r.json().get("NumberUnselectedRows").asLong()).isEqualTo(1);
        assertThat(rows("dup")).containsExactly(List.of(2L, "b"), List.of(3L, "c"));
    }

    @Test
    void tooManyFilteredRowsFailsWithAnErrorLogAndAbortsTheTransaction() {
        String label = label();
        Resp r = load("dup", csv(label), "1,a\nnot_a_number,b\n3,c\n");
        assertThat(r.loadStatus()).isEqualTo("Fail");
        assertThat(r.message()).isEqualTo("[DATA_QUALITY_ERROR]too many filtered rows");
        assertThat(r.json().get("NumberTotalRows").asLong()).isEqualTo(3);
        assertThat(r.json().get("NumberFilteredRows").asLong()).isEqualTo(1);
        assertThat(r.json().get("NumberLoadedRows").asLong()).as("forced to 0 on failure").isZero();
        assertThat(r.field("ErrorURL")).startsWith(doris.beUrl() + "/api/_load_error_log?file=");
        assertThat(r.field("FirstErrorMsg")).contains("not_a_number");
        assertThat(doris.labelState(db(), label)).isEqualTo(DorisTxnStatus.ABORTED);
        assertThat(rows("dup")).isEmpty();
        String errorLog = http.send("GET", r.field("ErrorURL").substring(doris.beUrl().length()), Map.of(), null,
                true).body();
        assertThat(errorLog).contains("not_a_number");
    }

    @Test
    void maxFilterRatioLetsAFewBadRowsThrough() {
        Resp r = load("dup", csv(label(), "max_filter_ratio", "0.5"), "1,a\nbad,b\n3,c\n");
        assertThat(r.loadStatus()).isEqualTo("Success");
        assertThat(r.json().get("NumberLoadedRows").asLong()).isEqualTo(2);
        assertThat(r.field("ErrorURL")).isNotNull();
        assertThat(rows("dup")).hasSize(2);
    }

    @Test
    void gzBodyIsDecompressed() throws Exception {
        byte[] gz = gzip("1,a\n2,b\n");
        String label = label();
        try (CloseableHttpClient client = HttpClients.custom().disableRedirectHandling().build()) {
            var request = ClassicRequestBuilder.put(doris.beUrl() + "/api/" + db() + "/dup/_stream_load")
                    .setHeader("Authorization", "Basic " + Base64.getEncoder().encodeToString("root:".getBytes(
                            StandardCharsets.UTF_8)))
                    .setHeader("Expect", "100-continue").setHeader("label", label).setHeader("column_separator", ",")
                    .setHeader("compress_type", "gz").setEntity(new ByteArrayEntity(gz, null)).build();
            String body = client.execute(request, resp -> EntityUtils.toString(resp.getEntity()));
            assertThat(body).contains("\"Status\" : \"Success\"");
        }
        assertThat(rows("dup")).containsExactly(List.of(1L, "a"), List.of(2L, "b"));
    }

    @Test
    void unsupportedFeaturesFailNamingTheHeader() {
        assertThat(load("dup", csv(label(), "format", "parquet"), "x").message())
                .isEqualTo("[NOT_IMPLEMENTED_ERROR]format: parquet is not supported by the emulator");
        assertThat(load("dup", csv(label(), "compress_type", "lzo"), "x").message())
                .isEqualTo("[NOT_IMPLEMENTED_ERROR]compress_type: lzo is not supported by the emulator");
        assertThat(load("dup", csv(label(), "enclose", "\""), "x").message())
                .isEqualTo("[NOT_IMPLEMENTED_ERROR]enclose is not supported by the emulator");
        assertThat(load("u", csv(label(), "hidden_columns", "__DORIS_SEQUENCE_COL__"), "x").message())
                .isEqualTo("[NOT_IMPLEMENTED_ERROR]hidden_columns: __DORIS_SEQUENCE_COL__ is not supported by the "
                        + "emulator");
        assertThat(load("dup", csv(label(), "format", "xml"), "x").message())
                .isEqualTo("[INVALID_ARGUMENT]unknown data format, format=xml");
    }

    @Test
    void bz2AndLz4BodiesAreDecompressedAndABodyThatDoesNotDecodeFailsTheLoad() throws Exception {
        for (BodyDecompression codec : List.of(BodyDecompression.BZIP2, BodyDecompression.LZ4_FRAME)) {
            byte[] body = BodyDecompressionTest.compress(codec,
                    ("1," + codec + "\n").getBytes(StandardCharsets.UTF_8));
            String type = codec == BodyDecompression.BZIP2 ? "bz2" : "lz4";
            try (CloseableHttpClient client = HttpClients.custom().disableRedirectHandling().build()) {
                var request = ClassicRequestBuilder.put(doris.beUrl() + "/api/" + db() + "/dup/_stream_load")
                        .setHeader("Authorization", "Basic " + Base64.getEncoder().encodeToString("root:".getBytes(
                                StandardCharsets.UTF_8)))
                        .setHeader("Expect", "100-continue").setHeader("label", label())
                        .setHeader("column_separator", ",").setHeader("compress_type", type)
                        .setEntity(new ByteArrayEntity(body, null)).build();
                String reply = client.execute(request, resp -> EntityUtils.toString(resp.getEntity()));
                assertThat(reply).contains("\"Status\" : \"Success\"");
            }
        }
        assertThat(rows("dup")).containsExactly(List.of(1L, "BZIP2"), List.of(1L, "LZ4_FRAME"));
        assertThat(load("dup", csv(label(), "compress_type", "bz2"), "2,plain\n").message())
                .startsWith("[INTERNAL_ERROR]failed to decompress the BZIP2 body");
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }
}
