package io.lockstep.emulator;

import static io.lockstep.emulator.TestSchema.h;
import static io.lockstep.emulator.TestSchema.orderRows;
import static io.lockstep.emulator.TestSchema.orders;
import static io.lockstep.emulator.TestSchema.ordersJson;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.SrHttp.Resp;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Redirect mechanics (docs/protocol.md#redirects-failover-and-probes), Basic authentication and the direct mode. */
class RedirectAndAuthTest {
    @RegisterExtension
    static final StarRocksEmulatorExtension SR = new StarRocksEmulatorExtension(
            StarRocksEmulator.builder().ddl(TestSchema.DDL).user("root", "").user("loader", "s3cret"));

    static SrHttp http;

    @BeforeAll
    static void client() {
        http = new SrHttp(SR.emulator().feUrl());
    }

    @AfterAll
    static void closeClient() throws Exception {
        http.close();
    }

    @Test
    void redirectIs307WithEmptyBodyAndTheSamePathAndQueryOnTheBe() {
        Resp r = http.send("PUT", "/api/shop/orders/_stream_load?x=1&y=two", h("Expect", "100-continue"), null, false);
        assertThat(r.status()).isEqualTo(307);
        assertThat(r.body()).isEmpty();
        assertThat(r.headers().get("location"))
                .isEqualTo(SR.emulator().beUrl() + "/api/shop/orders/_stream_load?x=1&y=two");
        assertThat(URI.create(r.headers().get("location")).getScheme()).isEqualTo("http");
    }

    @Test
    void feAnswers307BeforeTheBodyWhenExpectContinueIsSent() throws Exception {
        String label = "expect-1";
        assertThat(http.txn("begin", orders(label)).srStatus()).isEqualTo("OK");
        URI fe = URI.create(SR.emulator().feUrl());
        try (Socket socket = new Socket(fe.getHost(), fe.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            String head = "PUT /api/transaction/load HTTP/1.1\r\n"
                    + "Host: " + fe.getHost() + ":" + fe.getPort() + "\r\n"
                    + "Authorization: " + SrHttp.basic("root", "") + "\r\n"
                    + "label: " + label + "\r\ndb: shop\r\ntable: orders\r\nformat: json\r\n"
                    + "Expect: 100-continue\r\nContent-Length: 100000\r\n\r\n";
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII));
            List<String> lines = new ArrayList<>();
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                lines.add(line);
            }
            assertThat(lines.get(0)).as("no 100 Continue before the redirect").startsWith("HTTP/1.1 307");
            assertThat(lines).contains("Location: " + SR.emulator().beUrl() + "/api/transaction/load");
        }
    }

    @Test
    void largeBodyWithoutExpectIsReadBeforeTheRedirectSoTheClientCanFollowIt() {
        assertThat(http.txn("begin", orders("noexpect-1")).srStatus()).isEqualTo("OK");
        String rows = orderRows(1, 60_000);
        assertThat(rows.length()).isGreaterThan(3_000_000);
        Resp load = http.txn("load", ordersJson("noexpect-1"), rows);
        assertThat(load.hops()).containsExactly(307, 200);
        assertThat(load.srStatus()).isEqualTo("OK");
        assertThat(http.txn("rollback", orders("noexpect-1")).srStatus()).isEqualTo("OK");
    }

    @Test
    void clientMustResendCredentialsToTheBe() {
        Resp redirect = http.send("POST", "/api/transaction/begin", orders("creds-1"), null, false);
        assertThat(redirect.status()).isEqualTo(307);
        try (SrHttp be = new SrHttp("")) {
            Resp withoutAuth = be.withoutAuth().send("POST", redirect.headers().get("location"), orders("creds-1"),
                    null, false);
            assertThat(withoutAuth.srStatus()).isEqualTo("INTERNAL_ERROR");
            assertThat(withoutAuth.message()).isEqualTo("no valid Basic authorization");
            Resp withAuth = be.as("loader", "s3cret").send("POST", redirect.headers().get("location"),
                    orders("creds-1"), null, false);
            assertThat(withAuth.srStatus()).isEqualTo("OK");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void badCredentialsGet401WithBasicChallenge() {
        try (SrHttp wrong = new SrHttp(SR.emulator().feUrl())) {
            Resp r = wrong.as("loader", "nope").txn("begin", orders("auth-1"));
            assertThat(r.status()).isEqualTo(401);
            assertThat(r.headers().get("www-authenticate")).isEqualTo("Basic realm=\"\"");
            assertThat(r.keys()).containsExactly("status", "code", "msg", "message");
            assertThat(r.json().get("status").asText()).isEqualTo("FAILED");
            assertThat(r.json().get("msg").asText()).isEqualTo("Access denied for user 'loader'");
            Resp none = wrong.withoutAuth().txn("begin", orders("auth-2"));
            assertThat(none.status()).isEqualTo(401);
            assertThat(none.json().get("msg").asText()).isEqualTo("Need auth information.");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        assertThat(SR.emulator().transaction("shop", "auth-1")).isEmpty();
    }

    @Test
    void classicStreamLoadWithoutExpectIsRejectedAndTheConnectionClosed() {
        Resp r = http.send("PUT", "/api/shop/orders/_stream_load", h("label", "classic-noexpect"), "1\tx\t1.0\n",
                false);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.srStatus()).isEqualTo("FAILED");
        assertThat(r.message()).isEqualTo("class com.starrocks.common.DdlException: There is no 100-continue header");
        assertThat(r.headers().get("connection")).isEqualTo("close");
    }

    @Test
    void newerFeLabelCollisionStyleIsAnalysisError() throws Exception {
        try (StarRocksEmulator newer = StarRocksEmulator.builder().ddl(TestSchema.DDL)
                .backendConfig(new io.lockstep.emulator.be.BackendConfig(1L << 30, 100L << 20, true)).build().start();
             SrHttp client = new SrHttp(newer.feUrl())) {
            client.txn("begin", orders("newer-1"));
            client.txn("load", ordersJson("newer-1"), orderRows(1, 1));
            client.txn("prepare", orders("newer-1"));
            Resp r = client.txn("begin", orders("newer-1"));
            assertThat(r.srStatus()).isEqualTo("ANALYSIS_ERROR");
            assertThat(r.keys()).containsExactly("Status", "Message");
            assertThat(r.message()).isEqualTo("Label [newer-1] has already been used.");
        }
    }

    @Test
    void directModeExecutesOnTheFePort() throws Exception {
        try (StarRocksEmulator direct = StarRocksEmulator.builder().ddl(TestSchema.DDL).direct().build().start();
             SrHttp client = new SrHttp(direct.feUrl())) {
            Resp begin = client.txn("begin", orders("direct-1"));
            assertThat(begin.hops()).containsExactly(200);
            assertThat(begin.srStatus()).isEqualTo("OK");
            assertThat(client.txn("load", ordersJson("direct-1"), orderRows(1, 2)).hops()).containsExactly(200);
            Resp commit = client.txn("commit", orders("direct-1"));
            assertThat(commit.hops()).containsExactly(200);
            assertThat(commit.srStatus()).isEqualTo("OK");
            assertThat(direct.rowCount("shop", "orders")).isEqualTo(2);

            assertThat(client.txn("begin", TestSchema.multi("direct-m")).srStatus()).isEqualTo("OK");
            Resp multiLoad = client.txn("load", TestSchema.multi("direct-m", "table", "order_items", "format", "json",
                    "strip_outer_array", "true"),
                    "[{\"order_id\":1,\"line_no\":1,\"sku\":\"a\"}]");
            assertThat(multiLoad.hops()).containsExactly(200);
            assertThat(multiLoad.srStatus()).isEqualTo("OK");
            assertThat(client.txn("commit", TestSchema.multi("direct-m")).srStatus()).isEqualTo("OK");
            assertThat(direct.rowCount("shop", "order_items")).isEqualTo(1);

            Resp filtered = client.send("PUT", "/api/shop/orders/_stream_load",
                    h("Expect", "100-continue", "label", "direct-c", "column_separator", ","), "9,x\n", true);
            assertThat(filtered.json().get("ErrorURL").asText()).as("error logs are served by the FE port")
                    .startsWith(direct.feUrl() + "/api/_load_error_log?file=");
            assertThat(client.send("GET", filtered.json().get("ErrorURL").asText().substring(direct.feUrl().length()),
                    java.util.Map.of(), null, false).status()).isEqualTo(200);
        }
    }

    @Test
    void redirectsFromAWildcardBindNameALoopbackAddressNotTheWildcard() throws Exception {
        try (StarRocksEmulator sr = StarRocksEmulator.builder().host("0.0.0.0").ddl(TestSchema.DDL).build().start();
                SrHttp http = new SrHttp(sr.feUrl())) {
            Resp r = http.send("POST", "/api/transaction/begin", orders("adv-1"), null, false);
            assertThat(r.status()).isEqualTo(307);
            assertThat(r.headers().get("location")).startsWith("http://127.0.0.1:").endsWith("/api/transaction/begin");
            assertThat(sr.feUrl()).startsWith("http://127.0.0.1:");
        }
    }

    @Test
    void redirectsNameTheAdvertisedHost() throws Exception {
        try (StarRocksEmulator sr = StarRocksEmulator.builder().host("0.0.0.0").advertisedHost("localhost")
                .ddl(TestSchema.DDL).build().start();
                SrHttp http = new SrHttp("http://127.0.0.1:" + URI.create(sr.feUrl()).getPort())) {
            Resp r = http.send("POST", "/api/transaction/begin", orders("adv-2"), null, false);
            assertThat(r.status()).isEqualTo(307);
            assertThat(r.headers().get("location")).isEqualTo(sr.beUrl() + "/api/transaction/begin")
                    .startsWith("http://localhost:");
            Resp followed = http.send("POST", "/api/transaction/begin", orders("adv-3"), null, true);
            assertThat(followed.srStatus()).as("the advertised address is reachable").isEqualTo("OK");
        }
    }
}
