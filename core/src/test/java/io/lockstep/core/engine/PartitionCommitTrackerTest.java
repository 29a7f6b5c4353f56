package io.lockstep.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PartitionCommitTrackerTest {
    private final PartitionCommitTracker tracker = new PartitionCommitTracker();

    @Test
    void txnEndSeenIsStickyWithinACycle() {
        tracker.onWrite(1, 10, 100);
        tracker.onWrite(2, 10, 100);
        assertThat(tracker.partitionsWithoutTxnEnd()).containsExactly(1, 2);
        tracker.onTxnEnd(1);
        tracker.onWrite(1, 10, 200); // a new source transaction starts
        assertThat(tracker.status(1)).isEqualTo(PartitionCommitTracker.PartitionStatus.TXN_END_SEEN);
        assertThat(tracker.partitionsWithoutTxnEnd()).containsExactly(2);
        assertThat(tracker.partitionsMidTransactionSince(Long.MAX_VALUE)).containsExactly(1, 2);
        assertThat(tracker.partitionsMidTransactionSince(150)).containsExactly(2);
        assertThat(tracker.openSourceTxnBytes(1)).isEqualTo(10);
        assertThat(tracker.openSourceTxnBytes(2)).isEqualTo(10);
    }

    @Test
    void resetEndsTheCycleButKeepsOpenSourceTransactions() {
        tracker.onWrite(1, 10, 100);
        tracker.onTxnEnd(1);
        tracker.onWrite(2, 30, 100);
        tracker.onWrite(2, 5, 120);
        tracker.reset();
        assertThat(tracker.status(1)).isNull();
        assertThat(tracker.status(2)).isEqualTo(PartitionCommitTracker.PartitionStatus.ACTIVE);
        assertThat(tracker.openSourceTxnBytes(2)).isEqualTo(35);
        assertThat(tracker.partitionsMidTransactionSince(100)).containsExactly(2);
        tracker.onTxnEnd(2);
        assertThat(tracker.openSourceTxnBytes(2)).isZero();
        assertThat(tracker.partitionsMidTransactionSince(Long.MAX_VALUE)).isEmpty();
    }
}
