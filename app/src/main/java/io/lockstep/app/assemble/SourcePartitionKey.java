package io.lockstep.app.assemble;

import io.lockstep.app.event.SourceEvent;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;

/**
 * Keys events by their source partition (the unit inside which the assemblers rebuild transactions) such that
 * partition {@code p} is assembled on subtask {@code p mod parallelism}, the same spread the sink side uses
 * ({@code io.lockstep.app.job.SourcePartitionRouting}).
 *
 * <p>Why not the partition itself: Flink sends a key to the subtask owning its key group, and the key group is
 * a hash of the key; for the keys 0 and 1 at parallelism 2 (max parallelism 128) both groups belong to subtask
 * 0, so one assembler did all the work. Here the key is a {@code long} whose low 32 bits are the partition and
 * whose high 32 bits are a salt: the smallest salt {@code >= 0} whose key group
 * ({@link KeyGroupRangeAssignment#assignToKeyGroup}) lies in the key group range of the wanted subtask. The key
 * is therefore unique per partition ({@link #partitionOf} recovers it; keyed state stays per partition) and a
 * pure function of (partition, parallelism, max parallelism): the same after every restart with the same two
 * numbers. Routing only ever depends on the key's key group, so a parallelism other than the one given here
 * (e.g. a rescaled job) still assembles correctly, only possibly unevenly.
 *
 * <p>Checkpoint compatibility: restoring with a different parallelism or max parallelism changes the keys of
 * the partitions, so a transaction open at that checkpoint is not found under its new key (see app/README.md,
 * Limits). Checkpoints taken before this keying (keys were {@code Integer} partitions) do not restore: Flink
 * rejects the changed key serializer.
 */
public final class SourcePartitionKey implements KeySelector<SourceEvent, Long> {

    private static final long serialVersionUID = 1L;

    private final int parallelism;
    private final int maxParallelism;

    /**
     * @param parallelism the assembler operator's parallelism, &gt;= 1
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
        return keyFor(event.getPartition(), parallelism, maxParallelism);
    }

    /**
     * The key of a source partition: low 32 bits the partition, high 32 bits the smallest salt whose key group
     * belongs to subtask {@code floorMod(partition, parallelism)}. Some salt below {@code 2 * maxParallelism}
     * hits the range in practice (each try hits with probability &gt;= 1/parallelism); the search is bounded
     * all the same.
     *
     * @param partition the source (Kafka) partition
     * @param parallelism the assembler parallelism, &gt;= 1
     * @param maxParallelism the assembler max parallelism, &gt;= parallelism
     * @return the key, never negative for a partition &gt;= 0
     * @throws IllegalStateException if no salt below {@code 1024 * maxParallelism} maps to the subtask
     */
    public static long keyFor(int partition, int parallelism, int maxParallelism) {
        int subtask = Math.floorMod(partition, parallelism);
        KeyGroupRange wanted = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(maxParallelism,
                parallelism, subtask);
        long partitionBits = partition & 0xFFFF_FFFFL;
        long maxSalt = 1024L * maxParallelism;
        for (long salt = 0; salt < maxSalt; salt++) {
            long key = (salt << 32) | partitionBits;
            // what KeyGroupRangeAssignment.assignToKeyGroup(Long.valueOf(key), ...) computes, without boxing
            int keyGroup = KeyGroupRangeAssignment.computeKeyGroupForKeyHash(Long.hashCode(key), maxParallelism);
            if (wanted.contains(keyGroup)) {
                return key;
            }
        }
        throw new IllegalStateException("no key for source partition " + partition + " maps to assembler subtask "
                + subtask + " of " + parallelism + " (max parallelism " + maxParallelism + ")");
    }

    /**
     * @param key a key made by {@link #keyFor}
     * @return the source partition it stands for
     */
    public static int partitionOf(long key) {
        return (int) key;
    }

    /** @return the parallelism the keys are chosen for */
    public int parallelism() {
        return parallelism;
    }

    /** @return the max parallelism the keys are chosen for */
    public int maxParallelism() {
        return maxParallelism;
    }
}
