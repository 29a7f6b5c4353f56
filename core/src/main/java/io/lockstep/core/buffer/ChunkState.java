package io.lockstep.core.buffer;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Life cycle of a {@link Chunk}. Legal moves (the whole table is {@link #canMoveTo}):
 * <pre>
 *   ACTIVE  -&gt; FROZEN     switch: the task thread at a transaction end, or a clean idle/flush freeze
 *   ACTIVE  -&gt; DISCARDED  engine closed or failed
 *   FROZEN  -&gt; LOADING    the manager took it for a load under the shared label
 *   FROZEN  -&gt; DISCARDED  engine closed or failed
 *   LOADING -&gt; LOADED     the load succeeded
 *   LOADING -&gt; DISCARDED  the load failed (the engine fails with it)
 * </pre>
 */
public enum ChunkState {
    ACTIVE, FROZEN, LOADING, LOADED, DISCARDED;

    private static final Map<ChunkState, Set<ChunkState>> LEGAL = Map.of(
            ACTIVE, EnumSet.of(FROZEN, DISCARDED),
            FROZEN, EnumSet.of(LOADING, DISCARDED),
            LOADING, EnumSet.of(LOADED, DISCARDED),
            LOADED, EnumSet.noneOf(ChunkState.class),
            DISCARDED, EnumSet.noneOf(ChunkState.class));

    /** True if a chunk in this state may move to {@code next}. */
    public boolean canMoveTo(ChunkState next) {
        return LEGAL.get(this).contains(next);
    }
}
