package io.lockstep.core.client;

import static io.lockstep.core.client.FakeStarRocksServer.json;
import static io.lockstep.core.client.FakeStarRocksServer.redirectTo;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.buffer.Chunk;
import io.lockstep.core.buffer.RegionKey;
import io.lockstep.core.buffer.SegmentPool;
import io.lockstep.core.format.JsonLoadFormat;
import io.lockstep.core.format.LoadBody;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A load body streamed from chunks' segments reaches the server byte for byte, with {@code Content-Length} (not
 * chunked), on the BE a 307 points at and again on a retry.
 */
class StreamedLoadBodyTest extends ClientTestSupport {
    private static final JsonLoadFormat JSON = JsonLoadFormat.INSTANCE;
    private static final RegionKey REGION = new RegionKey(0, "shop", "orders");

    @Test
    void aChunkBodyFollowsTheRedirectAndARetryWithTheSameBytesAndItsContentLength() throws Exception {
        SegmentPool pool = new SegmentPool(4 << 20, 8 << 20, () -> 0);
        List<String> rows = new ArrayList<>();
        List<Chunk> chunks = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            Chunk chunk = new Chunk(REGION, pool, JSON.rowSeparator());
            for (int i = 0; c != 1 && i < 300; i++) { // chunk 1 stays empty; the others span several segments
                String row = "{\"id\":" + i + ",\"name\":\"" + "Grüße 日本 ".repeat(i % 50) + "\"}";
                chunk.append(row.getBytes(StandardCharsets.UTF_8));
                rows.add(row);
            }
            chunk.freeze(c + 1);
            chunks.add(chunk);
        }
        byte[] expected = ("[" + String.join(",", rows) + "]").getBytes(StandardCharsets.UTF_8);
        fe.on(LOAD, redirectTo(be.address()));
        be.on(LOAD, json("{\"Status\":\"TXN_IN_PROCESSING\",\"Label\":\"l1\",\"Message\":\"in processing\"}"),
                json("{\"Status\":\"OK\",\"Message\":\"\",\"Label\":\"l1\"}"));

        LoadReply reply = client.load(single("l1"), "orders", JSON.body(chunks), JSON_PROPS);

        assertThat(reply).isEqualTo(new LoadReply(expected.length, 2));
        assertThat(be.requests(LOAD)).hasSize(2);
        for (FakeStarRocksServer.Request atBe : be.requests(LOAD)) {
            assertThat(atBe.body()).isEqualTo(expected);
            assertThat(atBe.header("Content-Length")).isEqualTo(Integer.toString(expected.length));
            assertThat(atBe.header("Transfer-Encoding")).isNull();
        }
    }

    @Test
    void anArrayBodyStillLoadsAsBefore() throws Exception {
        be.on(LOAD, json("{\"Status\":\"OK\",\"Message\":\"\",\"Label\":\"l1\",\"LoadBytes\":5}"));
        fe.on(LOAD, redirectTo(be.address()));

        LoadReply reply = client.load(single("l1"), "orders", LoadBody.of(BODY), JSON_PROPS);

        assertThat(reply).isEqualTo(new LoadReply(5, 1));
        assertThat(be.requests(LOAD).get(0).body()).isEqualTo(BODY);
    }
}
