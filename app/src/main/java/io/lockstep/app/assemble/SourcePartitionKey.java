package io.lockstep.app.assemble;

import io.lockstep.app.event.SourceEvent;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;

/**
 * Keys events by their source partition (the unit inside which the assemblers rebuild transactions) so that the
 * partitions spread evenly over the assembler subtasks, with a key that does not depend on the parallelism (so a
 * job rescaled from a checkpoint finds every open transaction under the same key).
 *
 * <p>Why not the partition itself: Flink sends a key to the subtask owning its key group, and the key group is a
 * hash of the key; for the keys 0 and 1 at parallelism 2 (max parallelism 128) both groups belong to subtask 0,
 * so one assembler did all the work. Flink gives each subtask a contiguous range of key groups, so a key placed
 * in key group {@code floor(r(p) * maxParallelism)}, where {@code r(p)} is the base-2 radical inverse of the
 * partition (its bits mirrored behind the binary point: 0, 1/2, 1/4, 3/4, 1/8, ...), lands on subtask
 * {@code p mod 2} at parallelism 2, on distinct subtasks for partitions {@code 0..P-1} at any power-of-two
 * parallelism {@code P}, and spreads roughly evenly at other parallelisms.
 *
 * <p>The key is a {@code long} whose low 32 bits are the partition and whose high 32 bits are a salt: the
 * smallest salt {@code >= 0} whose key group ({@link KeyGroupRangeAssignment#assignToKeyGroup}) is that target.
 * It is unique per partition ({@link #partitionOf} recovers it; keyed state stays per partition) and a pure
 * function of (partition, max parallelism). Flink refuses to restore keyed state with another max parallelism,
 * so keys never change under a running job's state. Checkpoints taken before this keying (keys were
 * {@code Integer} partitions) do not restore: Flink rejects the changed key serializer.
 *
 * <p>Thread-safety: a selector instance may be used by several task threads; its key cache is concurrent.
 */
public final class SourcePartitionKey implements KeySelector<SourceEvent, Long> {

    private static final long serialVersionUID = 2L;

    private final int parallelism;
    private final int maxParallelism;
    /** Keys already computed, by partition (rebuilt after deserialization). */
    private transient Map<Integer, Long> cache;

    /**
     * @param parallelism the assembler operator's parallelism, &gt;= 1 (only checked and reported; the keys do not
     *     depend on it)
     * @param maxParallelism the assembler operator's max parallelism (number of key groups), &gt;= parallelism
     *     and &lt;= {@link KeyGroupRangeAssignment#UPPER_BOUND_MAX_PARALLELISM}
     * @throws IllegalArgumentException when the two do not satisfy these bounds
     */
    public SourcePartitionKey(int parallelism, int maxParallelism) {
        if (parallelism < 1 || maxParallelism < parallelism
                || maxParallelism > KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM) {
            throw new IllegalArgumentException("source partition keying needs 1 <= parallelism <= max parallelism <= "
                    + KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM + ", got parallelism " + parallelism
                    + " and max parallelism " + maxParallelism);
        }
        this.parallelism = parallelism;
        this.maxParallelism = maxParallelism;
    }

    /** @return the key of the event's source partition, see {@link #keyFor} */
    @Override
    public Long getKey(SourceEvent event) {
        Map<Integer, Long> keys = cache;
        if (keys == null) {
            keys = new ConcurrentHashMap<>();
            cache = keys;
        }
        return keys.computeIfAbsent(event.getPartition(), p -> keyFor(p, maxParallelism));
    }

    /**
     * The key group a partition's key is placed in: {@code floor(r(p) * maxParallelism)} with {@code r} the
     * base-2 radical inverse of the partition's 32 bits.
     *
     * @param partition the source (Kafka) partition
     * @param maxParallelism the number of key groups, &gt;= 1
     * @return a key group in {@code [0, maxParallelism)}
     */
    public static int targetKeyGroup(int partition, int maxParallelism) {
        long mirrored = Integer.reverse(partition) & 0xFFFF_FFFFL; // r(p) * 2^32
        return (int) ((mirrored * maxParallelism) >>> 32);
    }

    /**
     * The key of a source partition: low 32 bits the partition, high 32 bits the smallest salt whose key group is
     * {@link #targetKeyGroup}. Each try hits with probability about {@code 1/maxParallelism}; the search is bounded.
     *
     * @param partition the source (Kafka) partition
     * @param maxParallelism the assembler max parallelism
     * @return the key, never negative for a partition &gt;= 0
     * @throws IllegalStateException if no salt below {@code 1024 * maxParallelism} reaches the key group
     */
    public static long keyFor(int partition, int maxParallelism) {
        int wanted = targetKeyGroup(partition, maxParallelism);
        long partitionBits = partition & 0xFFFF_FFFFL;
        long maxSalt = 1024L * maxParallelism;
        for (long salt = 0; salt < maxSalt; salt++) {
            long key = (salt << 32) | partitionBits;
            // what KeyGroupRangeAssignment.assignToKeyGroup(Long.valueOf(key), ...) computes, without boxing
            if (KeyGroupRangeAssignment.computeKeyGroupForKeyHash(Long.hashCode(key), maxParallelism) == wanted) {
                return key;
            }
        }
        throw new IllegalStateException("no key for source partition " + partition + " reaches key group " + wanted
                + " (max parallelism " + maxParallelism + ")");
    }

    /**
     * @param key a key made by {@link #keyFor}
     * @return the source partition it stands for
     */
    public static int partitionOf(long key) {
        return (int) key;
    }

    /** @return the parallelism the selector was built for (the keys do not depend on it) */
    public int parallelism() {
        return parallelism;
    }

    /** @return the max parallelism the keys are chosen for */
    public int maxParallelism() {
        return maxParallelism;
    }
}
