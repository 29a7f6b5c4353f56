package io.lockstep.emulator;

import static io.lockstep.emulator.DorisSchema.csv;
import static io.lockstep.emulator.DorisSchema.eventRows;
import static io.lockstep.emulator.DorisSchema.h;
import static io.lockstep.emulator.DorisSchema.twoPc;
import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.DorisHttp.Resp;
import io.lockstep.emulator.doris.DorisConfig;
import io.lockstep.emulator.doris.DorisTxnStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code _stream_load} in Doris mode over real HTTP: the load × label-state cells of
 * docs/protocol.md#doris-states-labels-and-timers (label dedup with {@code ExistingJobStatus}, reuse after ABORTED),
 * the reply shape of docs/protocol.md#doris-replies, 2PC vs direct commit, the running-txn limit and the header checks
 * before the body.
 */
class DorisLoadConformanceTest extends DorisConformanceFixture {
    private static final AtomicInteger SEQ = new AtomicInteger();

    static String label() {
        return "ld_" + SEQ.incrementAndGet();
    }

    static void assertLabelAlreadyExists(Resp r, String label, long existingTxnId, String jobStatus) {
        assertThat(r.keys()).containsExactly("TxnId", "Label", "Comment", "TwoPhaseCommit", "Status",
                "ExistingJobStatus", "Message", "NumberTotalRows", "NumberLoadedRows", "NumberFilteredRows",
                "NumberUnselectedRows", "LoadBytes", "LoadTimeMs", "BeginTxnTimeMs", "StreamLoadPutTimeMs",
                "ReadDataTimeMs", "WriteDataTimeMs", "ReceiveDataTimeMs", "CommitAndPublishTimeMs");
        assertThat(r.loadStatus()).isEqualTo("Label Already Exists");
        assertThat(r.field("ExistingJobStatus")).isEqualTo(jobStatus);
        assertThat(r.txnId()).as("the txn id is only inside Message").isEqualTo(-1);
        assertThat(r.message()).isEqualTo("[LABEL_ALREADY_EXISTS]Label [" + label
                + "] has already been used, relate to txn [" + existingTxnId + "]");
        assertThat(r.json().get("NumberTotalRows").asLong()).isZero();
    }

    // --- one load, one transaction -----------------------------------------------------------------------

    @Test
    void loadWithoutTwoPhaseCommitIsVisibleAtOnce() {
        String label = label();
        long before = doris.rowCount("shop", "events");
        Resp r = http.load("shop", "events", csv(label, "comment", "nightly"), eventRows(100, 104));
        assertThat(r.hops()).containsExactly(307, 200);
        assertThat(r.body()).endsWith("}\n");
        assertThat(r.keys()).containsExactly("TxnId", "Label", "Comment", "TwoPhaseCommit", "Status", "Message",
                "NumberTotalRows", "NumberLoadedRows", "NumberFilteredRows", "NumberUnselectedRows", "LoadBytes",
                "LoadTimeMs", "BeginTxnTimeMs", "StreamLoadPutTimeMs", "ReadDataTimeMs", "WriteDataTimeMs",
                "ReceiveDataTimeMs", "CommitAndPublishTimeMs");
        assertThat(r.loadStatus()).isEqualTo("Success");
        assertThat(r.message()).isEqualTo("OK");
        assertThat(r.field("Label")).isEqualTo(label);
        assertThat(r.field("Comment")).isEqualTo("nightly");
        assertThat(r.json().get("TwoPhaseCommit").isTextual()).as("a string, not a boolean").isTrue();
        assertThat(r.field("TwoPhaseCommit")).isEqualTo("false");
        assertThat(r.json().get("NumberTotalRows").asLong()).isEqualTo(5);
        assertThat(r.json().get("NumberLoadedRows").asLong()).isEqualTo(5);
        assertThat(r.json().get("LoadBytes").asLong()).isEqualTo(eventRows(100, 104).length());
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.VISIBLE);
        assertThat(doris.transaction("shop", label).orElseThrow().txnId()).isEqualTo(r.txnId());
        assertThat(doris.rowCount("shop", "events")).isEqualTo(before + 5);
    }

    @Test
    void twoPhaseLoadEndsPrecommittedAndInvisible() {
        String label = label();
        long before = doris.rowCount("shop", "events");
        Resp r = http.load("shop", "events", twoPc(label), eventRows(1, 3));
        assertThat(r.loadStatus()).isEqualTo("Success");
        assertThat(r.field("TwoPhaseCommit")).isEqualTo("true");
        assertThat(r.json().get("NumberLoadedRows").asLong()).isEqualTo(3);
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.PRECOMMITTED);
        assertThat(doris.transaction(r.txnId()).orElseThrow().precommitTimeoutMs()).isEqualTo(3_600_000L);
        assertThat(doris.rowCount("shop", "events")).isEqualTo(before);
        assertThat(http.loadState("shop", label).field("data")).isEqualTo("PRECOMMITTED");
    }

    @Test
    void twoPhaseCommitNeedsExactlyTheStringTrue() {
        String label = label();
        Resp r = http.load("shop", "events", csv(label, "two_phase_commit", "TRUE"), eventRows(1, 1));
        assertThat(r.field("TwoPhaseCommit")).isEqualTo("false");
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.VISIBLE);
    }

    @Test
    void emptyTwoPhaseLoadSucceedsWithZeroRows() {
        String label = label();
        Resp r = http.load("shop", "events", twoPc(label), "");
        assertThat(r.loadStatus()).isEqualTo("Success");
        assertThat(r.field("TwoPhaseCommit")).isEqualTo("true");
        assertThat(r.json().get("NumberTotalRows").asLong()).isZero();
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.PRECOMMITTED);
    }

    @Test
    void loadWithoutLabelGetsAGeneratedOne() {
        Resp r = http.load("shop", "events", h("column_separator", ","), eventRows(1, 1));
        assertThat(r.loadStatus()).isEqualTo("Success");
        assertThat(r.field("Label")).matches("[0-9a-f-]{36}");
        assertThat(doris.labelState("shop", r.field("Label"))).isEqualTo(DorisTxnStatus.VISIBLE);
    }

    // --- labels ------------------------------------------------------------------------------------------

    @Test
    void loadOnRunningLabelIsRunning() throws Exception {
        String label = label();
        DorisLabelStates.Running running = states.prepare(label);
        Resp r = http.load("shop", "events", twoPc(label), eventRows(1, 1));
        assertLabelAlreadyExists(r, label, running.txnId, "RUNNING");
        assertThat(running.release().loadStatus()).isEqualTo("Success");
    }

    @Test
    void loadOnPrecommittedLabelIsPrecommitted() {
        String label = label();
        long id = states.precommitted(label);
        Resp r = http.load("shop", "events", twoPc(label), "");
        assertLabelAlreadyExists(r, label, id, "PRECOMMITTED");
        assertThat(r.field("TwoPhaseCommit")).isEqualTo("true");
        assertThat(doris.transaction("shop", label).orElseThrow().txnId()).as("nothing new begun").isEqualTo(id);
    }

    @Test
    void loadOnCommittedLabelIsFinished() {
        String label = label();
        long id = states.committedNotVisible(label);
        assertLabelAlreadyExists(http.load("shop", "events", csv(label), eventRows(1, 1)), label, id, "FINISHED");
    }

    @Test
    void loadOnVisibleLabelIsFinishedAndLoadsNothing() {
        String label = label();
        long id = states.visible(label);
        long before = doris.rowCount("shop", "events");
        assertLabelAlreadyExists(http.load("shop", "events", csv(label), eventRows(1, 9)), label, id, "FINISHED");
        assertThat(doris.rowCount("shop", "events")).isEqualTo(before);
    }

    @Test
    void loadOnAbortedLabelReusesItAtOnce() {
        String label = label();
        long first = states.aborted(label);
        Resp r = http.load("shop", "events", twoPc(label), eventRows(1, 1));
        assertThat(r.loadStatus()).isEqualTo("Success");
        assertThat(r.txnId()).isNotEqualTo(first);
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.PRECOMMITTED);
    }

    @Test
    void labelsAreUniquePerDatabase() {
        String label = label();
        states.visible(label);
        Resp r = http.load("other", "events", csv(label), eventRows(1, 1));
        assertThat(r.loadStatus()).isEqualTo("Success");
    }

    @Test
    void labelWithColonIsValidAndBadLabelIsRefused() {
        assertThat(http.load("shop", "events", csv("flink:db_t:0_1"), eventRows(1, 1)).loadStatus())
                .isEqualTo("Success");
        Resp bad = http.load("shop", "events", csv("a.b"), eventRows(1, 1));
        assertThat(bad.loadStatus()).isEqualTo("Fail");
        assertThat(bad.message()).isEqualTo("[ANALYSIS_ERROR]Label format error. regex: ^[-_A-Za-z0-9:]{1,128}$, "
                + "label: a.b");
        assertThat(bad.txnId()).isEqualTo(-1);
    }

    // --- running-txn limit -------------------------------------------------------------------------------

    @Test
    void precommittedTransactionsCountAgainstTheRunningLimitAndTheLabelCheckComesFirst() throws Exception {
        try (DorisEmulator small = DorisEmulator.builder().ddl(DorisSchema.DDL).clock(new ManualClock())
                .config(DorisConfig.defaults().withMaxRunningTxnPerDb(2)).build().start();
             DorisHttp client = new DorisHttp(small.feUrl())) {
            long first = client.load("shop", "events", twoPc("lim_1"), eventRows(1, 1)).txnId();
            client.load("shop", "events", twoPc("lim_2"), eventRows(1, 1));
            Resp refused = client.load("shop", "events", twoPc("lim_3"), eventRows(1, 1));
            assertThat(refused.loadStatus()).isEqualTo("Fail");
            long dbId = small.catalog().database("shop").orElseThrow().id();
            assertThat(refused.message()).isEqualTo("[ANALYSIS_ERROR]current running txns on db " + dbId
                    + " is 2, larger than limit 2");
            assertThat(small.labelState("shop", "lim_3")).isEqualTo(DorisTxnStatus.UNKNOWN);
            Resp duplicate = client.load("shop", "events", twoPc("lim_1"), eventRows(1, 1));
            assertThat(duplicate.loadStatus()).as("label check before the limit").isEqualTo("Label Already Exists");
            assertThat(client.load("other", "events", twoPc("lim_3"), eventRows(1, 1)).loadStatus())
                    .as("the limit is per database").isEqualTo("Success");
            client.twoPc("shop", h("txn_operation", "commit", "txn_id", String.valueOf(first)));
            assertThat(client.load("shop", "events", twoPc("lim_3"), eventRows(1, 1)).loadStatus()).isEqualTo("Success");
        }
    }

    @Test
    void runningLimitCanBeChangedByFaultInjectionAndIsRestoredByClear() {
        doris.faults().setMaxRunningTxnPerDb(0);
        try {
            assertThat(http.load("shop", "events", csv(label()), eventRows(1, 1)).message())
                    .contains("larger than limit 0");
        } finally {
            doris.faults().clear();
        }
        assertThat(http.load("shop", "events", csv(label()), eventRows(1, 1)).loadStatus()).isEqualTo("Success");
    }

    // --- header checks -----------------------------------------------------------------------------------

    @Test
    void unknownDatabaseOrTableFails() {
        Resp db = http.load("nodb", "events", csv(label()), eventRows(1, 1));
        assertThat(db.loadStatus()).isEqualTo("Fail");
        assertThat(db.message()).isEqualTo("[ANALYSIS_ERROR]unknown database, database=nodb");
        Resp table = http.load("shop", "nope", csv(label()), eventRows(1, 1));
        assertThat(table.message()).isEqualTo("[ANALYSIS_ERROR]Unknown table 'nope'");
    }

    @Test
    void timeoutHeaderSetsTheLoadBudgetAndBadValuesFail() {
        String label = label();
        Resp ok = http.load("shop", "events", twoPc(label, "timeout", "30"), eventRows(1, 1));
        assertThat(doris.transaction(ok.txnId()).orElseThrow().timeoutMs()).isEqualTo(30_000);
        assertThat(http.load("shop", "events", csv(label(), "timeout", "ten"), eventRows(1, 1)).message())
                .isEqualTo("[INVALID_ARGUMENT]Invalid timeout format, ten");
        assertThat(http.load("shop", "events", csv(label(), "timeout", "259201"), eventRows(1, 1)).message())
                .isEqualTo("[ANALYSIS_ERROR]Invalid timeout: 259201. Timeout should between 1 and 259200 seconds");
    }

    @Test
    void groupCommitValuesAreChecked() {
        Resp bad = http.load("shop", "events", csv(label(), "group_commit", "fast"), eventRows(1, 1));
        assertThat(bad.hops()).as("the FE refuses it").containsExactly(200);
        assertThat(bad.json().get("status").asText()).isEqualTo("FAILED");
        Resp async = http.load("shop", "events", csv(label(), "group_commit", "async_mode"), eventRows(1, 1));
        assertThat(async.message()).isEqualTo("[NOT_IMPLEMENTED_ERROR]group_commit: async_mode is not supported by "
                + "the emulator");
        String label = label();
        Resp with2pc = http.load("shop", "events", twoPc(label, "group_commit", "async_mode"), eventRows(1, 1));
        assertThat(with2pc.loadStatus()).as("2PC falls back to a normal load").isEqualTo("Success");
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.PRECOMMITTED);
    }

    @Test
    void aBodyWithoutContentLengthOrChunkedIsRefusedBeforeBegin() throws IOException {
        URI be = URI.create(doris.beUrl());
        String label = label();
        String request = "PUT /api/shop/events/_stream_load HTTP/1.1\r\nHost: " + be.getHost() + "\r\n"
                + "Authorization: " + DorisHttp.basic("root", "") + "\r\nlabel: " + label
                + "\r\nConnection: close\r\n\r\n";
        String reply;
        try (Socket socket = new Socket(be.getHost(), be.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            reply = all.toString(StandardCharsets.UTF_8);
        }
        assertThat(reply).startsWith("HTTP/1.1 200");
        assertThat(reply).contains("[INTERNAL_ERROR]content_length is empty and transfer-encoding!=chunked, please "
                + "set content_length or transfer-encoding=chunked");
        assertThat(doris.labelState("shop", label)).isEqualTo(DorisTxnStatus.UNKNOWN);
    }

    @Test
    void httpStreamAndMiniLoadAreRefusedClearly() {
        Resp r = http.send("PUT", "/api/_http_stream", h("Expect", "100-continue"), "x", true);
        assertThat(r.json().get("status").asText()).isEqualTo("FAILED");
        assertThat(r.json().get("msg").asText()).contains("not supported by the Lockstep emulator");
    }
}
