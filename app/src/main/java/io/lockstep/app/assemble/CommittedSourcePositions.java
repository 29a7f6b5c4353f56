package io.lockstep.app.assemble;

import io.lockstep.app.event.CdcFormat;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, per completed source transaction, whether it is new (emit it), a re-send of a committed one (drop it) or
 * a sign that the source went back (stop), from the committed source commit position of its commit source on the
 * current source partition (docs/exactly-once.md; positions: {@link CommitPosition}).
 *
 * <p>State (keyed by source partition; checkpointed): {@code committed-source-positions}, commit source to
 * {@link CommittedSource}, and {@code cut-transaction}, the key of a transaction cut off by a connector restart whose
 * re-send is awaited. Both are new descriptors: a checkpoint taken before they existed restores with them empty. The
 * effective committed position of a commit source is the later of this state and the seed
 * ({@link AssemblerOptions#committedPositions()}: what the progress table held when the run started; it can only be
 * ahead of a checkpoint), merged once per run and key.
 *
 * <p>Rules, for a transaction of a commit source with a committed position C:
 * <ul>
 *   <li>below C, or at C and the same transaction ({@link CommitPosition#sameTransactionAs}): dropped, counted in
 *       {@value #RESENT_METRIC}; a run of drops is said in one INFO line when it starts and one when it ends (first and
 *       last position, count);
 *   <li>at C but another transaction (other txId, GTID reused with another commit time): the source went back
 *       (point-in-time restore, a promoted replica, {@code RESET MASTER}): {@link TransactionAssemblyException};
 *   <li>above C after a run of drops that did not reach C itself: the re-send skipped the committed transaction, so
 *       the source is not the one that committed C: {@link TransactionAssemblyException};
 *   <li>above C while a cut transaction is awaited and this is another one: the cut transaction, which committed right
 *       after C, was never re-sent: {@link TransactionAssemblyException} (its rows would be lost);
 *   <li>else new: emitted, then {@link #commit} records it.
 * </ul>
 * What it cannot see: a source that went back and re-used positions strictly below C (each is dropped as a re-send
 * until the stream reaches C); a GTID re-used by {@code RESET MASTER} below the committed GTID (in the set: dropped);
 * a GTID never committed but below the set's window ({@link GtidSet#WINDOW}; counted as committed: dropped). A
 * transaction without a position of a commit source that has a committed one stops
 * ({@link #requireNoCommittedPosition}).
 *
 * <p>Owned by a {@link TransactionAssembler} (created in its {@code open}); task thread only, keyed state scoped to
 * the key being processed. Logs under the assembler's logger.
 */
public final class CommittedSourcePositions {

    /** Name of the counter (assembler metric group) of source transactions dropped as re-sends. */
    public static final String RESENT_METRIC = "lockstepSourceTransactionsResent";

    /** Longest commit source in characters (the progress table's {@code source} column, after {@code #commit:}). */
    public static final int MAX_COMMIT_SOURCE_CHARS = 200;

    private static final Logger LOG = LoggerFactory.getLogger(TransactionAssembler.class);

    private final MapState<String, CommittedSource> committed;
    private final ValueState<String> cutTransaction;
    private final Map<Integer, Map<String, String>> seed;
    /** {@code partition + "\n" + commitSource} whose seed was merged since this subtask opened. */
    private final Set<String> seedMerged = new HashSet<>();
    private final Counter resent;
    /** The text {@link #parse} read last and what it reads as ({@link #commit} extends its GTID set in place). */
    private String parsedText;
    private CommitPosition parsed;

    /**
     * @param context the assembler's runtime context (keyed state, metric group)
     * @param options the seed ({@link AssemblerOptions#committedPositions()})
     */
    CommittedSourcePositions(RuntimeContext context, AssemblerOptions options) {
        committed = context.getMapState(new MapStateDescriptor<>("committed-source-positions", Types.STRING,
                TypeInformation.of(CommittedSource.class)));
        cutTransaction = context.getState(new ValueStateDescriptor<>("cut-transaction", Types.STRING));
        seed = options.committedPositions();
        resent = context.getMetricGroup().counter(RESENT_METRIC);
    }

    /** @return transactions this subtask dropped as re-sends since it opened ({@value #RESENT_METRIC}) */
    long resentCount() {
        return resent.getCount();
    }

    /**
     * For {@code lockstep run}'s start line: which position a format's transactions are deduplicated by.
     *
     * @param format the input format
     * @return e.g. {@code source commit position (PostgreSQL commit LSN; MySQL GTID set, else binlog file and
     *     position) where the events carry one, else Kafka offset}
     */
    public static String deduplicatesBy(CdcFormat format) {
        return format == CdcFormat.DEBEZIUM
                ? "source commit position (PostgreSQL commit LSN; MySQL GTID set, else binlog file and position) "
                        + "where the events carry one, else Kafka offset"
                : "source commit position (Maxwell 'gtid' with output_gtid_position, else 'position' with "
                        + "output_binlog_position) where the rows carry one, else Kafka offset";
    }

    /**
     * @param partition the current key's source partition
     * @param commitSource the transaction's commit source
     * @param position its commit position
     * @param what the transaction as named in messages, with where it ends
     * @return {@code true} when it is a re-send of a committed transaction: drop it (counted)
     * @throws TransactionAssemblyException when the source went back or a cut transaction was lost (the rules above)
     */
    boolean isResent(int partition, String commitSource, CommitPosition position, String what) throws Exception {
        CommittedSource state = effective(partition, commitSource);
        if (state == null || state.getPosition() == null) {
            forgetCutWithoutCommittedPosition(position, what);
            return false;
        }
        CommitPosition last = parse(state.getPosition(), commitSource, partition, "the committed position");
        int place;
        try {
            place = position.compareWith(last);
        } catch (IllegalArgumentException e) {
            throw new TransactionAssemblyException(what + " of " + commitSource + " on source partition " + partition
                    + ": " + e.getMessage());
        }
        String where = commitSource + " on source partition " + partition;
        if (place == 0 && !position.sameTransactionAs(last)) {
            throw new TransactionAssemblyException(what + " is at the committed position of " + where + " but is "
                    + "another transaction (" + position.describe() + ", commit time " + position.commitTimeMs
                    + " ms; committed: " + last.describe() + ", " + last.commitTimeMs + " ms): the source went back "
                    + "(point-in-time restore, promoted replica, RESET MASTER?); nothing after it is loaded");
        }
        if (place <= 0) {
            resent.inc();
            if (state.getDropped() == 0) {
                state.setCommittedSeenAgain(false);
                state.setFirstDropped(position.describe());
                LOG.info("Dropping re-sent source transactions of {}, committed up to {}: first {}", where,
                        last.describe(), what);
            }
            state.setDropped(state.getDropped() + 1);
            state.setLastDropped(position.describe());
            // the committed transaction anywhere in this run of drops shows the same history (a re-send need not
            // end with it: older transactions may follow it)
            state.setCommittedSeenAgain(state.isCommittedSeenAgain() || place == 0);
            committed.put(commitSource, state);
            return true;
        }
        if (state.getDropped() > 0) {
            if (!state.isCommittedSeenAgain()) {
                throw new TransactionAssemblyException(what + " (" + position.describe() + ") follows "
                        + transactions(state.getDropped()) + " of " + where + " (" + state.getFirstDropped()
                        + " .. " + state.getLastDropped() + ") without the committed one (" + last.describe()
                        + ") among them: the source is not the one that committed it (point-in-time restore, "
                        + "promoted replica, RESET MASTER?); nothing after it is loaded");
            }
            LOG.info("Dropped {} of {} ({} .. {}); loading again from {}", transactions(state.getDropped()), where,
                    state.getFirstDropped(), state.getLastDropped(), position.describe());
            state.setDropped(0);
            state.setFirstDropped(null);
            state.setLastDropped(null);
            committed.put(commitSource, state);
        }
        checkNotPastCut(position, what);
        return false;
    }

    /** @return whether {@code commitSource} has a committed position on source partition {@code partition} */
    boolean hasCommittedPosition(int partition, String commitSource) throws Exception {
        CommittedSource state = effective(partition, commitSource);
        return state != null && state.getPosition() != null;
    }

    /**
     * A transaction of {@code commitSource} whose events carry no commit position (Maxwell's {@code position} and
     * {@code gtid} turned off, a PostgreSQL END id with a bare {@code txId}): fine until the commit source has a
     * committed position on this source partition; after that it could not be told from a re-send, so it stops.
     *
     * @param what the transaction as named in messages, with where it ends
     * @throws TransactionAssemblyException when the commit source has a committed position here
     */
    void requireNoCommittedPosition(int partition, String commitSource, String what) throws Exception {
        CommittedSource state = effective(partition, commitSource);
        if (state != null && state.getPosition() != null) {
            CommitPosition last = parse(state.getPosition(), commitSource, partition, "the committed position");
            throw new TransactionAssemblyException(what + " on source partition " + partition + " carries no commit "
                    + "position of " + commitSource + ", whose committed position here is a " + last.kind.text()
                    + " position (" + last.describe() + "): it cannot be told from a re-send (was the connector's "
                    + "position output turned off?); nothing after it is loaded");
        }
    }

    /**
     * Records a transaction {@link #isResent} found new, once it is emitted.
     *
     * @return the text of the commit source's new committed position (the end row's {@code commitPosition})
     * @throws TransactionAssemblyException when the text would exceed {@value CommitPosition#MAX_TEXT_BYTES} bytes,
     *     or the commit source {@value #MAX_COMMIT_SOURCE_CHARS} characters
     */
    String commit(int partition, String commitSource, CommitPosition position) throws Exception {
        if (commitSource.length() > MAX_COMMIT_SOURCE_CHARS) {
            throw new TransactionAssemblyException("the commit source '" + commitSource.substring(0, 40) + "...' on "
                    + "source partition " + partition + " is " + commitSource.length() + " characters, over the "
                    + MAX_COMMIT_SOURCE_CHARS + " the progress table's source column takes; shorten the connector's "
                    + "name (Debezium topic.prefix)");
        }
        CommittedSource state = effective(partition, commitSource);
        if (state == null) {
            state = new CommittedSource();
        }
        CommitPosition previous = state.getPosition() == null ? null
                : parse(state.getPosition(), commitSource, partition, "the committed position");
        parsedText = null; // previous's GTID set is extended in place: it no longer matches its text
        CommitPosition now = position.committedAfter(previous);
        String text = now.toText();
        parsedText = text;
        parsed = now;
        state.setPosition(text);
        committed.put(commitSource, state);
        return text;
    }

    /** @return the current key's only commit source with a committed position (for a transaction without rows) */
    String soleCommitSource(int partition) throws Exception {
        Set<String> sources = new HashSet<>();
        for (String source : committed.keys()) {
            sources.add(source);
        }
        sources.addAll(seed.getOrDefault(partition, Map.of()).keySet());
        return sources.size() == 1 ? sources.iterator().next() : null;
    }

    /**
     * Remembers a transaction cut off at a connector restart (its partial copy discarded): the next new transaction
     * must be its re-send.
     *
     * @param transactionKey its key
     * @param description how it is named in messages (id, start position, events received)
     */
    void cut(String transactionKey, String description) throws Exception {
        cutTransaction.update(transactionKey + "\n" + description);
    }

    /** A transaction of {@code transactionKey} arrived: if it is the awaited cut one, it is being re-sent. */
    void arrived(String transactionKey, String where) throws Exception {
        String cut = cutTransaction.value();
        if (cut != null && cutKey(cut).equals(transactionKey)) {
            LOG.info("{} is sent again at {}: loading it whole", cutDescription(cut), where);
            cutTransaction.clear();
        }
    }

    private void checkNotPastCut(CommitPosition position, String what) throws Exception {
        String cut = cutTransaction.value();
        if (cut != null && !Objects.equals(cutKey(cut), position.transactionId)) {
            throw new TransactionAssemblyException(cutDescription(cut) + " was cut off and never "
                    + "sent again, but " + what + " (" + position.describe() + "), which committed after it, arrived: "
                    + "its rows would be lost");
        }
    }

    /**
     * Without a committed position the cut transaction's place is unknown (the input may have started between it and
     * the transaction before it): a new transaction other than it ends the wait, said in one WARN.
     */
    private void forgetCutWithoutCommittedPosition(CommitPosition position, String what) throws Exception {
        String cut = cutTransaction.value();
        if (cut != null && !Objects.equals(cutKey(cut), position.transactionId)) {
            LOG.warn("{} was cut off and not sent again before {} ({}); with no committed position of its source "
                    + "yet, whether it commits before or after it cannot be told: if it is never sent again, its rows "
                    + "are not loaded", cutDescription(cut), what, position.describe());
            cutTransaction.clear();
        }
    }

    /** @return the transaction key of a {@link #cut} record ({@code key + "\n" + description}) */
    private static String cutKey(String cut) {
        return cut.substring(0, cut.indexOf('\n'));
    }

    /** @return the description of a {@link #cut} record */
    private static String cutDescription(String cut) {
        return cut.substring(cut.indexOf('\n') + 1);
    }

    /** The commit source's state, with the seed merged in once per run (the later of both). */
    private CommittedSource effective(int partition, String commitSource) throws Exception {
        CommittedSource state = committed.get(commitSource);
        if (!seedMerged.add(partition + "\n" + commitSource)) {
            return state;
        }
        String seedText = seed.getOrDefault(partition, Map.of()).get(commitSource);
        if (seedText == null) {
            return state;
        }
        CommitPosition seeded = parse(seedText, commitSource, partition, "the progress table's commit position");
        if (state == null) {
            state = new CommittedSource();
        }
        if (state.getPosition() == null) {
            state.setPosition(seeded.toText());
        } else {
            CommitPosition keyed = parse(state.getPosition(), commitSource, partition, "the committed position");
            boolean seedLater = seeded.kind != keyed.kind || seeded.compareWith(keyed) > 0;
            state.setPosition(seedLater ? seeded.withGtidsOf(keyed).toText() : keyed.withGtidsOf(seeded).toText());
        }
        committed.put(commitSource, state);
        return state;
    }

    /** @return {@code 1 re-sent source transaction} or {@code n re-sent source transactions} */
    private static String transactions(long count) {
        return count + (count == 1 ? " re-sent source transaction" : " re-sent source transactions");
    }

    private CommitPosition parse(String text, String commitSource, int partition, String what) {
        if (text.equals(parsedText)) {
            return parsed;
        }
        try {
            parsed = CommitPosition.parse(text);
            parsedText = text;
            return parsed;
        } catch (IllegalArgumentException e) {
            throw new TransactionAssemblyException(what + " of " + commitSource + " on source partition " + partition
                    + " cannot be read: " + e.getMessage());
        }
    }
}
