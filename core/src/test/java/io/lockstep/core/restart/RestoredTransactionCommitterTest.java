package io.lockstep.core.restart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.client.LabelState;
import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.client.TransactionException;
import io.lockstep.core.metrics.LoadMetrics;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.StarRocksEmulatorExtension;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.txn.TransactionStatus;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link RestoredTransactionCommitter} against the emulator: which failed commits of a restored checkpoint can never
 * heal ({@link LostPreparedTransactionException}) and which a later restore may still settle.
 */
class RestoredTransactionCommitterTest {
    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(StarRocksEmulator.builder().ddl(
            "CREATE DATABASE eo; CREATE TABLE eo.events (id INT) DUPLICATE KEY (id)"));

    private TransactionClient client;

    @BeforeEach
    void openClient() {
        client = new StarRocksTransactionClient(TransactionClientConfig.builder()
                .loadUrls(sr.emulator().feUrl().replace("http://", "")).username("root").maxRetries(1)
                .retryBackoff(1, 2).labelStateTimeoutMs(2_000).build(), LoadMetrics.noop());
    }

    @AfterEach
    void closeClient() {
        client.close();
    }

    /** A transaction prepared for {@code checkpoint}, as a restored state holds it. */
    private CheckpointedTransaction prepared(String label, long checkpoint) throws TransactionException {
        CheckpointedTransaction txn = new CheckpointedTransaction("eo", "events", label, checkpoint, "run1");
        client.begin(txn.ref(), 600);
        client.load(txn.ref(), "events", "[{\"id\":1}]".getBytes(StandardCharsets.UTF_8),
                Map.of("format", "json", "strip_outer_array", "true"));
        client.prepare(txn.ref());
        return txn;
    }

    @Test
    void aHeldTransactionTheServerExpiredBeforeItsCommitCanNeverHeal() throws Exception {
        CheckpointedTransaction expired = prepared("eo-events-0-run1-4", 4);
        assertThat(sr.emulator().faults().forceExpire("eo", expired.label())).isTrue();

        assertThatThrownBy(() -> RestoredTransactionCommitter.commitAll(client, List.of(expired)))
                .isInstanceOf(LostPreparedTransactionException.class)
                .hasMessageContaining("restored label eo-events-0-run1-4 (table eo.events, checkpoint 4) cannot be "
                        + "committed")
                .hasMessageContaining("The rows this subtask prepared for that checkpoint are not in the target")
                .hasMessageContaining("the label is ABORTED")
                .hasMessageContaining("prepared_transaction_default_timeout_second")
                .satisfies(e -> {
                    assertThat(e.getMessage()).doesNotContain("\n");
                    assertThat(((LostPreparedTransactionException) e).state()).isEqualTo(LabelState.ABORTED);
                    assertThat(((LostPreparedTransactionException) e).transaction()).isEqualTo(expired);
                });
        assertThat(sr.emulator().rowCount("eo", "events")).isZero();
    }

    @Test
    void aCommitThatCannotReachTheServerYetIsNotALostTransaction() throws Exception {
        CheckpointedTransaction held = prepared("eo-events-0-run1-5", 5);
        sr.emulator().faults().failNextHttp(FaultOp.COMMIT, 10, 503);

        assertThatThrownBy(() -> RestoredTransactionCommitter.commitAll(client, List.of(held)))
                .isInstanceOf(TransactionException.class)
                .isNotInstanceOf(LostPreparedTransactionException.class)
                .hasMessageContaining("cannot be committed yet (label state PREPARED)");
        sr.emulator().faults().clear();

        RestoredTransactionCommitter.commitAll(client, List.of(held)); // the next restore commits it
        assertThat(sr.emulator().labelState("eo", held.label())).isEqualTo(TransactionStatus.VISIBLE);
    }
}
