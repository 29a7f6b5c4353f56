package io.lockstep.emulator;

import static io.lockstep.emulator.DorisSchema.csv;
import static io.lockstep.emulator.DorisSchema.eventRows;
import static io.lockstep.emulator.DorisSchema.h;
import static io.lockstep.emulator.DorisSchema.twoPc;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.DorisHttp.Resp;
import io.lockstep.emulator.doris.DorisTxnStatus;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Doris FE's 307 to the BE and Basic authentication on both ports
 * (docs/protocol.md#doris-endpoints-redirects-and-headers, #doris-replies), and the FE's REST envelope for
 * get_load_state, health and backends.
 */
class DorisRedirectAndAuthTest {
    static DorisEmulator doris;

    @BeforeAll
    static void start() throws Exception {
        doris = DorisEmulator.builder().ddl(DorisSchema.DDL).clock(new ManualClock()).user("etl", "p@ss:w")
                .build().start();
    }

    @AfterAll
    static void stop() {
        doris.close();
    }

    static DorisHttp fe() {
        return new DorisHttp(doris.feUrl()).as("etl", "p@ss:w");
    }

    @Test
    void feRedirectsLoadsToTheBeWithCredentialsAndTheOriginalQuery() throws Exception {
        try (DorisHttp http = fe()) {
            Resp r = http.send("PUT", "/api/shop/events/_stream_load?x=1",
                    h("Expect", "100-continue", "label", "rd1", "column_separator", ","), eventRows(1, 1), true);
            assertThat(r.hops()).containsExactly(307, 200);
            URI be = URI.create(doris.beUrl());
            assertThat(r.locations()).containsExactly("http://etl:p%40ss%3Aw@" + be.getHost() + ":" + be.getPort()
                    + "/api/shop/events/_stream_load?x=1");
            assertThat(r.loadStatus()).isEqualTo("Success");
        }
    }

    @Test
    void locationEndsWithAQuestionMarkWhenThereIsNoQuery() throws Exception {
        try (DorisHttp http = fe()) {
            Resp r = http.load("shop", "events", csv("rd2"), eventRows(1, 1));
            assertThat(r.locations().get(0)).endsWith("/api/shop/events/_stream_load?");
            Resp c = http.twoPc("shop", h("txn_operation", "abort", "label", "nothing"));
            assertThat(c.hops()).containsExactly(307, 200);
            assertThat(c.locations().get(0)).endsWith("/api/shop/_stream_load_2pc?");
        }
    }

    @Test
    void credentialsInLocationCanBeTurnedOff() throws Exception {
        try (DorisEmulator plain = DorisEmulator.builder().ddl(DorisSchema.DDL).credentialsInLocation(false).build()
                .start(); DorisHttp http = new DorisHttp(plain.feUrl())) {
            Resp r = http.load("shop", "events", csv("rd3"), eventRows(1, 1));
            assertThat(r.locations()).containsExactly(plain.beUrl() + "/api/shop/events/_stream_load?");
            assertThat(r.loadStatus()).isEqualTo("Success");
        }
    }

    @Test
    void feRefusesALoadWithoutExpect() throws Exception {
        try (DorisHttp http = fe()) {
            Resp r = http.send("PUT", "/api/shop/events/_stream_load", csv("rd4"), eventRows(1, 1), true);
            assertThat(r.hops()).containsExactly(200);
            assertThat(r.json().get("status").asText()).isEqualTo("FAILED");
            assertThat(r.json().get("msg").asText()).isEqualTo("There is no 100-continue header");
            assertThat(doris.labelState("shop", "rd4")).isEqualTo(DorisTxnStatus.UNKNOWN);
        }
    }

    @Test
    void feAuthenticationFailureIsTheEnvelopeWithCode401() throws Exception {
        try (DorisHttp wrong = new DorisHttp(doris.feUrl()).as("etl", "nope");
             DorisHttp none = new DorisHttp(doris.feUrl()).withoutAuth()) {
            for (Resp r : new Resp[] {wrong.load("shop", "events", csv("rd5"), eventRows(1, 1)),
                    none.twoPc("shop", h("txn_operation", "commit", "txn_id", "1")), none.loadState("shop", "x")}) {
                assertThat(r.hops()).containsExactly(200);
                assertThat(r.keys()).containsExactly("msg", "code", "data", "count");
                assertThat(r.json().get("code").asInt()).isEqualTo(401);
                assertThat(r.field("msg")).isEqualTo("Unauthorized");
            }
            assertThat(doris.labelState("shop", "rd5")).isEqualTo(DorisTxnStatus.UNKNOWN);
        }
    }

    @Test
    void beChecksAuthorizationToo() throws Exception {
        try (DorisHttp none = new DorisHttp(doris.beUrl()).withoutAuth();
             DorisHttp wrong = new DorisHttp(doris.beUrl()).as("etl", "nope")) {
            Resp missing = none.load("shop", "events", csv("rd6"), eventRows(1, 1));
            assertThat(missing.loadStatus()).isEqualTo("Fail");
            assertThat(missing.message()).isEqualTo("[NOT_AUTHORIZED]no valid Basic authorization");
            Resp denied = wrong.load("shop", "events", csv("rd6"), eventRows(1, 1));
            assertThat(denied.message()).isEqualTo("[ANALYSIS_ERROR]Access denied for user 'etl' (using password: "
                    + "YES)");
            assertThat(doris.labelState("shop", "rd6")).isEqualTo(DorisTxnStatus.UNKNOWN);
            Resp twoPc = none.twoPc("shop", h("txn_operation", "commit", "txn_id", "1"));
            assertThat(twoPc.field("status")).isEqualTo("NOT_AUTHORIZED");
            Resp twoPcDenied = wrong.twoPc("shop", h("txn_operation", "commit", "txn_id", "1"));
            assertThat(twoPcDenied.field("msg")).endsWith("Access denied for user 'etl' (using password: YES)");
        }
    }

    @Test
    void loadsCanGoStraightToTheBe() throws Exception {
        try (DorisHttp be = new DorisHttp(doris.beUrl()).as("etl", "p@ss:w")) {
            Resp r = be.load("shop", "events", twoPc("rd7"), eventRows(1, 1));
            assertThat(r.hops()).containsExactly(200);
            assertThat(r.loadStatus()).isEqualTo("Success");
            Resp c = be.twoPc("shop", h("txn_operation", "commit", "label", "rd7"));
            assertThat(c.hops()).containsExactly(200);
            assertThat(c.field("status")).isEqualTo("Success");
        }
    }

    @Test
    void getLoadStateAnswersTheEnvelope() throws Exception {
        try (DorisHttp http = fe()) {
            http.load("shop", "events", twoPc("rd8"), eventRows(1, 1));
            Resp r = http.loadState("shop", "rd8");
            assertThat(r.hops()).containsExactly(200);
            assertThat(r.keys()).containsExactly("msg", "code", "data", "count");
            assertThat(r.field("msg")).isEqualTo("success");
            assertThat(r.json().get("code").asInt()).isZero();
            assertThat(r.field("data")).isEqualTo("PRECOMMITTED");
            assertThat(http.loadState("shop", "never").field("data")).isEqualTo("UNKNOWN");
            Resp noLabel = http.send("GET", "/api/shop/get_load_state", Map.of(), null, true);
            assertThat(noLabel.json().get("code").asInt()).isEqualTo(403);
            Resp noDb = http.loadState("nodb", "x");
            assertThat(noDb.json().get("code").asInt()).isEqualTo(1);
            assertThat(noDb.field("msg")).isEqualTo("Error");
        }
    }

    @Test
    void healthAndBackendsDescribeTheOneBe() throws Exception {
        try (DorisHttp http = fe()) {
            Resp health = http.send("GET", "/api/health", Map.of(), null, true);
            assertThat(health.json().at("/data/online_backend_num").asInt()).isEqualTo(1);
            Resp backends = http.send("GET", "/api/backends?is_alive=true", Map.of(), null, true);
            URI be = URI.create(doris.beUrl());
            assertThat(backends.json().at("/data/backends/0/ip").asText()).isEqualTo(be.getHost());
            assertThat(backends.json().at("/data/backends/0/http_port").asInt()).isEqualTo(be.getPort());
            assertThat(backends.json().at("/data/backends/0/is_alive").asBoolean()).isTrue();
            assertThat(doris.beHostPort()).isEqualTo(be.getHost() + ":" + be.getPort());
        }
    }

    @Test
    void unknownPathsAnswer404() throws Exception {
        try (DorisHttp http = fe()) {
            assertThat(http.send("GET", "/nothing-here", Map.of(), null, true).status()).isEqualTo(404);
            assertThat(http.send("PUT", "/api/transaction/begin", Map.of(), "", true).status()).isEqualTo(404);
        }
    }
}
