package io.lockstep.core.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.core.time.ManualTicker;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An outage of 26 retries over 95 s is two WARN lines, one when it starts (the failure cut short) and one when the
 * target answers again (its duration and the retries in between), on the injectable clock; the log is slf4j-simple's
 * (System.err, DEBUG hidden by default).
 */
class OutageLogTest {

    @Test
    void anOutageIsOneLineWhenItStartsAndOneWhenItEnds() {
        ManualTicker clock = new ManualTicker(1_000);
        OutageLog outage = new OutageLog("http://fe1:8030", clock);
        String failure = "Connect to http://fe1:8030 [fe1/10.0.0.1] failed: Connection refused; " + "x".repeat(400);

        List<String> lines = warnings(() -> {
            for (int retry = 0; retry < 26; retry++) {
                outage.retrying("commit of label lockstep-1-2 (db shop, multi-table): retry 1/3", FailureClass.CONNECTION,
                        failure, 500);
                clock.advanceMs(3_650);
            }
            outage.answered();
            outage.answered(); // healthy: nothing more
        });

        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).contains("http://fe1:8030 is failing (CONNECTION): commit of label lockstep-1-2 (db "
                + "shop, multi-table): retry 1/3: Connect to http://fe1:8030 [fe1/10.0.0.1] failed: Connection refused;")
                .contains("; retrying (one line when it answers again)")
                .hasSizeLessThan(failure.length());
        assertThat(lines.get(1)).contains("http://fe1:8030 answers again after 94.9 s: 26 retries in between");
        assertThat(outage.ongoing()).isFalse();
    }

    @Test
    void theEngineFailuresOfAnOngoingOutageAreCountedInItsLastLine() {
        ManualTicker clock = new ManualTicker(0);
        OutageLog outage = new OutageLog("http://fe2:8030", clock);
        TransactionException unsettled = new TransactionException("commit of label L failed after 4 attempt(s)",
                null);
        TransactionException refused = new TransactionException("access denied", null, FailureClass.ACCESS_DENIED,
                null);

        List<String> lines = warnings(() -> {
            outage.retrying("begin of label L", FailureClass.CONNECTION, "Connection refused", 500);
            assertThat(outage.engineFailedIfOngoing(new RuntimeException("engine", unsettled))).isTrue();
            assertThat(outage.engineFailedIfOngoing(refused)).as("a classified refusal is no outage").isFalse();
            clock.advanceMs(2_000);
            outage.answered();
            assertThat(outage.engineFailedIfOngoing(unsettled)).as("after the outage").isFalse();
        });

        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).contains("answers again after 2.0 s: 1 retries and 1 engine failure(s) (job restarts) "
                + "in between");
    }

    /** @return the WARN lines slf4j-simple wrote to System.err while {@code action} ran */
    private static List<String> warnings(Runnable action) {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        return captured.toString(StandardCharsets.UTF_8).lines().filter(line -> line.contains("WARN")).toList();
    }
}
