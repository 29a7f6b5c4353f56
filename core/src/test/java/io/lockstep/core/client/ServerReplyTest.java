package io.lockstep.core.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Decoding a reply's JSON object into its top-level fields as text, as the tree model gave them. */
class ServerReplyTest {
    private static ServerReply decode(String body) {
        return ServerReply.decode(new StarRocksHttp.HttpReply(200, URI.create("http://fe:8030/api/x"), null,
                body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void fieldsAreTextWithKeysMatchedCaseInsensitively() {
        ServerReply reply = decode("{\"Status\":\"OK\",\"TxnId\":42,\"LoadBytes\":12345678901234,\"Ratio\":1.50,"
                + "\"TwoPhaseCommit\":true,\"ErrorURL\":null,\"Nested\":{\"a\":[1,2]},\"List\":[1],\"Big\":"
                + "123456789012345678901234567890,\"Label\":\"é\\n\"}");

        assertThat(reply.isJson()).isTrue();
        assertThat(reply.statusIn("ok")).isTrue();
        assertThat(reply.number("txnid", -1)).isEqualTo(42);
        assertThat(reply.number("LOADBYTES", -1)).isEqualTo(12_345_678_901_234L);
        assertThat(reply.text("ratio")).isEqualTo("1.5");
        assertThat(reply.text("twophasecommit")).isEqualTo("true");
        assertThat(reply.text("ErrorURL")).isNull();
        assertThat(reply.text("nested")).isEmpty();
        assertThat(reply.text("list")).isEmpty();
        assertThat(reply.text("big")).isEqualTo("123456789012345678901234567890");
        assertThat(reply.text("label")).isEqualTo("é\n");
        assertThat(reply.text("absent")).isNull();
    }

    @Test
    void ofKeysEqualButForCaseTheFirstWinsAndOfEqualKeysTheLaterValue() {
        ServerReply reply = decode("{\"status\":\"first\",\"Status\":\"second\",\"msg\":\"a\",\"msg\":\"b\"}");

        assertThat(reply.status()).isEqualTo("first");
        assertThat(reply.message()).isEqualTo("b");
    }

    @Test
    void aBodyThatIsNoCompleteJsonObjectIsNotJsonAndIsDescribedByItsFirstBytes() {
        for (String body : new String[] {"[1,2]", "42", "  ", "<html>502 Bad Gateway</html>", "{\"Status\":\"OK\"",
                "{\"Status\":}"}) {
            ServerReply reply = decode(body);
            assertThat(reply.isJson()).as(body).isFalse();
            assertThat(reply.status()).as(body).isNull();
        }
        assertThat(decode("<html>bad</html>").describe()).contains("non-JSON body, first bytes: '<html>bad</html>'");
        assertThat(decode("{\"Status\":\"OK\"} trailing").isJson()).as("content after the object is ignored")
                .isTrue();
    }
}
