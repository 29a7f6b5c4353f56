package io.lockstep.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Scanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code GET /api/{db}/{table}/_schema} in Doris mode, read the way the Doris Flink connector reads it and driving the
 * decisions the connector takes from it.
 *
 * <p>Reply shape: Doris FE {@code fe/fe-core/src/main/java/org/apache/doris/httpv2/rest/TableSchemaAction.java}
 * ({@code properties} entries {@code type/name/comment/aggregation_type}, {@code precision}/{@code scale} for
 * decimals, {@code keysType} from {@code catalog/KeysType.java}, {@code tableType} "Doris", {@code status} 200; unknown
 * database or table via {@code ResponseEntityBuilder.okWithCommonError}; failed authentication via
 * {@code RestApiExceptionHandler} → {@code ResponseEntityBuilder.unauthorized}). Reading:
 * apache/doris-flink-connector {@code flink-doris-connector/src/main/java/org/apache/doris/flink/rest/RestService.java}
 * ({@code send}: HTTP 200 required, the envelope's {@code data} unwrapped when {@code code} and {@code msg} are
 * present; {@code parseSchema}: {@code status} must be 200; {@code isUniqueKeyType}: {@code keysType} equals
 * {@code UNIQUE_KEYS}),
 * {@code rest/models/Schema.java} (unknown fields ignored) and {@code rest/models/Field.java} (no unknown fields
 * allowed). Decisions: {@code sink/DorisSink.checkKeyType} (2PC turned off for a UNIQUE KEY table unless forced) and
 * {@code table/DorisDynamicTableSink.getSinkRuntimeProvider} (deletes only for a UNIQUE KEY table).
 */
class DorisTableSchemaConformanceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final DorisEmulatorExtension DORIS = new DorisEmulatorExtension(
            DorisEmulator.builder().ddl(DorisSchema.DDL).user("flink", "pw-1"));

    /** The connector's {@code rest/models/Schema}: unknown fields ignored. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    static final class Schema {
        public int status;
        public String keysType;
        public List<Field> properties = new ArrayList<>();
    }

    /** The connector's {@code rest/models/Field}: every field the FE sends must map to one of these. */
    static final class Field {
        public String name;
        public String type;
        public String comment;
        public int precision;
        public int scale;
        public String aggregation_type;
    }

    /** What the connector decides from the schema. */
    record Decisions(boolean deletable, boolean twoPhaseCommit) {
        static Decisions of(Schema schema, boolean enableDelete, boolean enable2pc, boolean force2pc) {
            boolean unique = "UNIQUE_KEYS".equals(schema.keysType);
            return new Decisions(enableDelete && unique, enable2pc && !(!force2pc && unique));
        }
    }

    /** {@code RestService.getSchema}: GET with Basic auth, HTTP 200 required, envelope unwrapped, status 200. */
    static Schema getSchema(String db, String table, String user, String password) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(DORIS.emulator().feUrl() + "/api/" + db + "/" + table
                + "/_schema").toURL().openConnection();
        c.setRequestProperty("Authorization", "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        c.connect();
        if (c.getResponseCode() != 200) {
            throw new IOException("Failed to get response from Doris");
        }
        StringBuilder response = new StringBuilder();
        try (Scanner scanner = new Scanner(c.getInputStream(), "utf-8")) {
            while (scanner.hasNext()) {
                response.append(scanner.next());
            }
        }
        Map<?, ?> map = JSON.readValue(response.toString(), Map.class);
        String data = map.containsKey("code") && map.containsKey("msg")
                ? JSON.writeValueAsString(map.get("data")) : response.toString();
        Schema schema = JSON.readValue(data, Schema.class);
        if (schema.status != 200) {
            throw new IOException("Doris FE's response is not OK, status is " + schema.status);
        }
        return schema;
    }

    private static JsonNode raw(String path, String user, String password) throws Exception {
        try (DorisHttp http = new DorisHttp(DORIS.emulator().feUrl()).as(user, password)) {
            DorisHttp.Resp r = http.send("GET", path, Map.of(), null, false);
            assertThat(r.status()).isEqualTo(200);
            return r.json();
        }
    }

    @Test
    void aUniqueKeyTableMakesTheConnectorDeleteAndTurnItsDefault2pcOff() throws Exception {
        Schema schema = getSchema("shop", "orders", "flink", "pw-1");

        assertThat(schema.keysType).isEqualTo("UNIQUE_KEYS");
        assertThat(schema.properties).extracting(f -> f.name + " " + f.type + " " + f.aggregation_type + " '"
                + f.comment + "'").containsExactly("order_id BIGINT  ''", "status VARCHAR REPLACE ''",
                "total DECIMAL64 REPLACE ''");
        assertThat(schema.properties.get(2).precision).isEqualTo(12);
        assertThat(schema.properties.get(2).scale).isEqualTo(2);
        assertThat(Decisions.of(schema, true, true, false)).isEqualTo(new Decisions(true, false));
        assertThat(Decisions.of(schema, true, true, true)).isEqualTo(new Decisions(true, true));
    }

    @Test
    void aDuplicateKeyTableKeepsDeletesOffAnd2pcOn() throws Exception {
        Schema schema = getSchema("shop", "events", "flink", "pw-1");

        assertThat(schema.keysType).isEqualTo("DUP_KEYS");
        assertThat(schema.properties).extracting(f -> f.name + " " + f.type + " " + f.aggregation_type)
                .containsExactly("id BIGINT ", "kind VARCHAR NONE");
        assertThat(Decisions.of(schema, true, true, false)).isEqualTo(new Decisions(false, true));
    }

    @Test
    void theReplyHasTheFeEnvelopeAndOnlyTheFieldsTheConnectorKnows() throws Exception {
        JsonNode reply = raw("/api/shop/orders/_schema", "flink", "pw-1");

        assertThat(names(reply)).containsExactly("msg", "code", "data", "count");
        assertThat(reply.get("msg").asText()).isEqualTo("success");
        assertThat(reply.get("code").asInt()).isZero();
        assertThat(reply.get("count").asInt()).isZero();
        JsonNode data = reply.get("data");
        assertThat(names(data)).containsExactlyInAnyOrder("properties", "keysType", "tableType", "status");
        assertThat(data.get("status").asInt()).isEqualTo(200);
        assertThat(data.get("tableType").asText()).isEqualTo("Doris");
        assertThat(names(data.get("properties").get(0)))
                .containsExactlyInAnyOrder("type", "name", "comment", "aggregation_type");
        assertThat(names(data.get("properties").get(2)))
                .containsExactlyInAnyOrder("type", "name", "comment", "aggregation_type", "precision", "scale");
        assertThat(data.get("properties").get(2).get("precision").asText()).isEqualTo("12");
    }

    @Test
    void anUnknownTableOrDatabaseIsACommonErrorTheConnectorFailsOn() throws Exception {
        JsonNode table = raw("/api/shop/nope/_schema", "flink", "pw-1");
        assertThat(table.get("code").asInt()).isEqualTo(1);
        assertThat(table.get("msg").asText()).isEqualTo("Error");
        assertThat(table.get("data").asText()).isEqualTo("errCode = 2, detailMessage = Unknown table 'nope'");
        JsonNode db = raw("/api/nodb/orders/_schema", "flink", "pw-1");
        assertThat(db.get("data").asText()).isEqualTo("errCode = 2, detailMessage = Unknown database 'nodb'");

        assertThatThrownBy(() -> getSchema("shop", "nope", "flink", "pw-1")).isInstanceOf(IOException.class);
    }

    @Test
    void aWrongPasswordIsUnauthorizedInTheEnvelope() throws Exception {
        JsonNode reply = raw("/api/shop/orders/_schema", "flink", "wrong");
        assertThat(reply.get("code").asInt()).isEqualTo(401);
        assertThat(reply.get("msg").asText()).isEqualTo("Unauthorized");

        assertThatThrownBy(() -> getSchema("shop", "orders", "flink", "wrong")).isInstanceOf(IOException.class);
    }

    @Test
    void aColumnAddedLaterIsInTheSchema() throws Exception {
        DORIS.emulator().executeDdl("CREATE TABLE shop.later (k INT NOT NULL, v STRING) UNIQUE KEY (k)"
                + " DISTRIBUTED BY HASH(k) BUCKETS 1; ALTER TABLE shop.later ADD COLUMN at DATETIME");
        Schema schema = getSchema("shop", "later", "flink", "pw-1");
        assertThat(schema.properties).extracting(f -> f.name + " " + f.type)
                .containsExactly("k INT", "v STRING", "at DATETIMEV2");
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }
}
