package io.lockstep.core.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** The engine's pool of chunk segments: reuse, its two bounds, and the checks against use after return. */
class SegmentPoolTest {
    private static final int SEGMENT = SegmentPool.SEGMENT_BYTES;

    private final AtomicLong buffered = new AtomicLong();

    /** buffer-size 4 segments, hard limit 8. */
    private SegmentPool pool() {
        return new SegmentPool(4L * SEGMENT, 8L * SEGMENT, buffered::get);
    }

    @Test
    void aReturnedSegmentIsTheNextOneTaken() {
        SegmentPool pool = pool();
        byte[] first = pool.take();
        assertThat(first).hasSize(SEGMENT);
        pool.giveBack(first);
        assertThat(pool.take()).isSameAs(first);
        assertThat(pool.reusedSegments()).isEqualTo(1);
        assertThat(pool.allocatedSegments()).isEqualTo(1);
        assertThat(pool.inUseSegments()).isEqualTo(1);
    }

    @Test
    void aSegmentReturnedTwiceOrNotTakenFromThePoolIsRefused() {
        SegmentPool pool = pool();
        byte[] segment = pool.take();
        pool.giveBack(segment);
        assertThatThrownBy(() -> pool.giveBack(segment)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("returned to the pool twice");
        assertThatThrownBy(() -> pool.giveBack(new byte[SEGMENT])).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("never taken from it");
        assertThat(pool.freeSegments()).as("the refused returns added nothing").isEqualTo(1);
    }

    @Test
    void aWriteAfterTheReturnIsCaughtWhenTheSegmentIsTakenAgain() {
        boolean assertions = false;
        assert assertions = true;
        assertThat(assertions).as("the check runs with Java assertions enabled, as in every test run").isTrue();
        SegmentPool pool = pool();
        byte[] segment = pool.take();
        pool.giveBack(segment);
        segment[SEGMENT / 2] = '{'; // a stale holder writes into the free segment
        assertThatThrownBy(pool::take).isInstanceOf(AssertionError.class)
                .hasMessageContaining("written after it was returned");
    }

    @Test
    void ownsAtMostTheHardLimitAndKeepsAtMostBufferSizeFree() {
        SegmentPool pool = pool();
        assertThat(pool.maxOwnedSegments()).isEqualTo(8);
        assertThat(pool.maxFreeSegments()).isEqualTo(4);
        List<byte[]> taken = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            taken.add(pool.take());
        }
        assertThat(pool.take()).as("at the hard limit the chunk allocates a plain segment").isNull();
        for (byte[] segment : taken) {
            pool.giveBack(segment);
        }
        assertThat(pool.freeSegments()).as("buffer-size of free segments stays on the heap").isEqualTo(4);
        assertThat(pool.ownedSegments()).isEqualTo(4);
        for (int i = 0; i < 8; i++) {
            assertThat(pool.take()).isNotNull();
        }
        assertThat(pool.reusedSegments()).isEqualTo(4);
        assertThat(pool.allocatedSegments()).isEqualTo(12);
    }

    @Test
    void freeSegmentsGiveWayWhenBufferedRowsNeedTheRoom() {
        SegmentPool pool = pool();
        List<byte[]> taken = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            taken.add(pool.take());
        }
        taken.forEach(pool::giveBack);
        buffered.set(4L * SEGMENT);
        pool.makeRoomForPlain();
        assertThat(pool.freeSegments()).as("4 buffered + 4 free fit under the hard limit of 8").isEqualTo(4);
        buffered.set(6L * SEGMENT + 1);
        pool.makeRoomForPlain();
        assertThat(pool.freeSegments()).as("rows buffered in plain segments push free ones out").isEqualTo(1);
        buffered.set(8L * SEGMENT);
        pool.makeRoomForPlain();
        assertThat(pool.freeSegments()).isZero();
        assertThat(pool.ownedSegments()).isZero();
    }

    @Test
    void theEmptyPoolOwnsNothing() {
        SegmentPool none = SegmentPool.none();
        assertThat(none.take()).isNull();
        assertThat(none.ownedSegments()).isZero();
        assertThatThrownBy(() -> new SegmentPool(2, 1, () -> 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bufferSizeBytes <= hardLimitBytes");
    }
}
