package io.lockstep.app.rebuild;

import io.lockstep.app.assemble.CommitPosition;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * Rule 7 of the cross-topic rebuild: what was released already, so that events read again (a connector's re-send
 * after its restart, a job's restart from covered offsets) are not buffered a second time. Two proofs, either
 * suffices:
 * <ul>
 *   <li>the transaction key is among the last {@value #RECENT_KEYS} released;
 *   <li>the event's commit position is at or below the highest released one of its commit source
 *       ({@link CommitPosition}; seeded from the committed {@code #commit:} positions at start). PostgreSQL data
 *       events: {@link SourceEvent#getPreviousCommitLsn()} ({@code source.sequence[0]}, the commit LSN of the
 *       transaction committed just before the event's) below the released commit LSN L means the event's transaction
 *       committed at or before L (docs/input-formats.md#postgresql-data-events-carry-the-previous-commit-lsn); MySQL:
 *       the GTID in the released GTID set, or the binlog position of its BEGIN at or below the released one.
 *       PostgreSQL BEGIN ids carry no commit LSN: BEGINs are proven by key only.
 * </ul>
 * Keyed state (the rebuild's one key; task thread only).
 */
final class ReleasedPositions {

    /** How many released transaction keys are remembered. */
    static final int RECENT_KEYS = 10_000;

    /** Transaction key to its release number. */
    private final MapState<String, Long> keys;
    /** Release number modulo {@link #RECENT_KEYS} to the key released under it. */
    private final MapState<Long, String> ring;
    /** Commit source to the highest released position's text ({@link CommitPosition#toText()}). */
    private final MapState<String, String> positions;
    /** Transactions released so far (the next release number). */
    private final ValueState<Long> releases;
    /**
     * Task thread only: {@link #positions} parsed, by commit source, so an event costs no JSON parse (a GTID set's
     * text runs to 64 KiB). Derived from the state, which only this class writes; empty after a restore, refilled.
     */
    private final Map<String, CommitPosition> parsed = new HashMap<>();

    /** @param context the rebuild's runtime context (keyed) */
    ReleasedPositions(RuntimeContext context) {
        keys = context.getMapState(new MapStateDescriptor<>("rebuild-released-keys", Types.STRING, Types.LONG));
        ring = context.getMapState(new MapStateDescriptor<>("rebuild-released-ring", Types.LONG, Types.STRING));
        positions = context.getMapState(new MapStateDescriptor<>("rebuild-released-positions", Types.STRING,
                Types.STRING));
        releases = context.getState(new ValueStateDescriptor<>("rebuild-releases", Types.LONG));
    }

    /**
     * Seeds the released commit positions with the committed ones (first start of the rebuild's state).
     *
     * @param committed commit source to committed position text; may be {@code null}
     * @throws Exception from the state backend
     */
    void seed(Map<String, String> committed) throws Exception {
        if (committed != null) {
            for (Map.Entry<String, String> entry : committed.entrySet()) {
                positions.put(entry.getKey(), entry.getValue());
                parsed.remove(entry.getKey());
            }
        }
    }

    /**
     * @param event a BEGIN, data event or END
     * @param source the commit source of its transaction ({@code null}: {@link #soleSource()} is asked)
     * @return whether its transaction was released already (see the class comment)
     * @throws Exception from the state backend
     */
    boolean isReleased(SourceEvent event, String source) throws Exception {
        if (event.getTransactionKey() != null && keys.contains(event.getTransactionKey())) {
            return true;
        }
        String commitSource = source != null ? source : soleSource();
        CommitPosition released = commitSource == null ? null : releasedPosition(commitSource);
        if (released == null) {
            return false;
        }
        CommitPosition position;
        if (commitSource.startsWith("postgresql:")) {
            if (event.getKind() == SourceEventKind.ROW && event.getPreviousCommitLsn() >= 0) {
                SourceEvent previous = new SourceEvent(); // the transaction committed before the event's
                previous.setCommitLsn(event.getPreviousCommitLsn());
                return CommitPosition.of(commitSource, previous).compareWith(released) < 0;
            }
            position = event.getKind() == SourceEventKind.END ? CommitPosition.of(commitSource, event) : null;
        } else {
            position = CommitPosition.of(commitSource, event);
        }
        try {
            return position != null && position.compareWith(released) <= 0;
        } catch (IllegalArgumentException e) { // lacks the released position's kind: the assembler decides
            return false;
        }
    }

    /**
     * Records a released transaction: its key, and its commit position as the highest released one.
     *
     * @param end its END
     * @param source its commit source, or {@code null} when its events named none
     * @throws Exception from the state backend
     */
    void released(SourceEvent end, String source) throws Exception {
        remember(end.getTransactionKey());
        String commitSource = source != null ? source : soleSource();
        CommitPosition position = commitSource == null ? null : CommitPosition.of(commitSource, end);
        if (position != null) {
            CommitPosition now = position.committedAfter(releasedPosition(commitSource));
            positions.put(commitSource, now.toText());
            parsed.put(commitSource, now);
        }
    }

    /**
     * Records a transaction key as released (among the last {@value #RECENT_KEYS}), so later copies of its events
     * are dropped; also for an END forwarded alone, whose data events may still come.
     *
     * @throws Exception from the state backend
     */
    void remember(String key) throws Exception {
        Long count = releases.value();
        long number = count == null ? 0 : count;
        String old = ring.get(number % RECENT_KEYS);
        if (old != null && Long.valueOf(number - RECENT_KEYS).equals(keys.get(old))) {
            keys.remove(old);
        }
        ring.put(number % RECENT_KEYS, key);
        keys.put(key, number);
        releases.update(number + 1);
    }

    /** @return the highest released position of the commit source, or {@code null} */
    private CommitPosition releasedPosition(String source) throws Exception {
        CommitPosition position = parsed.get(source);
        if (position == null) {
            String text = positions.get(source);
            if (text == null) {
                return null;
            }
            position = parse(source, text);
            parsed.put(source, position);
        }
        return position;
    }

    /**
     * @return the position the text holds
     * @throws TransactionRebuildException when it is not a commit position (a progress table edited by hand): the
     *     job stops once instead of restarting on it
     */
    private static CommitPosition parse(String source, String text) {
        try {
            return CommitPosition.parse(text);
        } catch (IllegalArgumentException e) {
            throw new TransactionRebuildException("the committed commit position of " + source
                    + " (progress table, #commit: row) is not one: " + e.getMessage());
        }
    }

    /** @return the one commit source with a released position, or {@code null} (none, or several) */
    String soleSource() throws Exception {
        Iterator<String> sources = positions.keys().iterator();
        String first = sources.hasNext() ? sources.next() : null;
        return sources.hasNext() ? null : first;
    }
}
