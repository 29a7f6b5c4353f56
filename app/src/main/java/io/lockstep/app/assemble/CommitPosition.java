package io.lockstep.app.assemble;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.app.event.Gtid;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceEventKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A source transaction's place in its source database's commit order, and what identifies the transaction there
 * (docs/input-formats.md#source-commit-positions-and-re-sends). Kinds:
 * <ul>
 *   <li>{@link Kind#POSTGRES_LSN}: the commit LSN of a Debezium PostgreSQL END id {@code txId:LSN}; identity: the
 *       {@code txId} and the commit time;
 *   <li>{@link Kind#GTID}: a MySQL GTID (Debezium MySQL with GTIDs, Maxwell with {@code gtid}); identity: the GTID
 *       and the commit time; a committed position also holds the whole committed {@link GtidSet};
 *   <li>{@link Kind#BINLOG}: a binlog file and offset (Debezium MySQL without GTIDs: the BEGIN event's; Maxwell
 *       {@code position}: after the commit row's rows event); identity: the transaction id (Maxwell {@code xid}) and
 *       the commit time.
 * </ul>
 *
 * <p>Its text ({@link #toText()}, JSON) is the {@code commitPosition} of a transaction-end row: the sink stores it
 * without reading it, and {@link #parse} restores everything the assembler needs from it, for example
 * {@code {"kind":"postgres-lsn","lsn":24242688,"txId":"738","commitTimeMs":1796305094889}} or
 * {@code {"kind":"gtid","gtid":"3e11fa47-71ca-11e1-9e33-c80aa9429562:23","commitTimeMs":...,"gtidSet":
 * {"3e11fa47-71ca-11e1-9e33-c80aa9429562":[[1,23]]}}}. At most {@value #MAX_TEXT_BYTES} bytes of UTF-8 (the
 * progress table's {@code commit_position} column; a GTID set is bounded, {@link GtidSet#WINDOW}). Immutable, but for
 * the GTID set, which its owner (one assembler task thread) extends ({@link #committedAfter}).
 */
public final class CommitPosition {

    /** Longest text in UTF-8 bytes: the progress table's {@code commit_position VARCHAR(65533)}. */
    public static final int MAX_TEXT_BYTES = 65_533;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a commit position is made of. */
    public enum Kind {
        /** PostgreSQL commit LSN. */
        POSTGRES_LSN("postgres-lsn"),
        /** MySQL GTID, with the committed GTID set. */
        GTID("gtid"),
        /** MySQL binlog file and offset. */
        BINLOG("binlog");

        private final String text;

        Kind(String text) {
            this.text = text;
        }

        /** @return the kind's name in the commit position text and in log lines */
        public String text() {
            return text;
        }

        static Kind of(String text) {
            for (Kind kind : values()) {
                if (kind.text.equals(text)) {
                    return kind;
                }
            }
            throw new IllegalArgumentException("unknown commit position kind '" + text + "'");
        }
    }

    final Kind kind;
    final long lsn;
    final Gtid gtid;
    final String binlogFile;
    final long binlogPosition;
    final String transactionId;
    final long commitTimeMs;
    /** GTID kind, committed positions only: every committed GTID; else {@code null}. */
    final GtidSet gtidSet;

    private CommitPosition(Kind kind, long lsn, Gtid gtid, String binlogFile, long binlogPosition,
            String transactionId, long commitTimeMs, GtidSet gtidSet) {
        this.kind = kind;
        this.lsn = lsn;
        this.gtid = gtid;
        this.binlogFile = binlogFile;
        this.binlogPosition = binlogPosition;
        this.transactionId = transactionId;
        this.commitTimeMs = commitTimeMs;
        this.gtidSet = gtidSet;
    }

    /**
     * The commit position of a transaction from the event that ends it.
     *
     * @param commitSource the transaction's commit source ({@code postgresql:...}, {@code mysql:...},
     *     {@code maxwell...})
     * @param end the Debezium END, or the Maxwell commit row
     * @return the position, or {@code null} when the events carry none (Kafka offsets alone then deduplicate)
     */
    public static CommitPosition of(String commitSource, SourceEvent end) {
        if (commitSource == null) {
            return null;
        }
        Gtid gtid = Gtid.parseOrNull(end.getGtid());
        if (commitSource.startsWith("postgresql:")) {
            return end.getCommitLsn() < 0 ? null : new CommitPosition(Kind.POSTGRES_LSN, end.getCommitLsn(), null, null,
                    -1, end.getTransactionKey(), end.getCommitTimeMs(), null);
        }
        Kind kind = gtid != null ? Kind.GTID : end.getBinlogFile() != null && end.getBinlogPosition() >= 0
                ? Kind.BINLOG : null;
        String id = kind == Kind.GTID && gtid.toString().equalsIgnoreCase(end.getTransactionId())
                ? gtid.toString() : end.getTransactionId(); // a GTID's tag compares without case
        return kind == null ? null : new CommitPosition(kind, -1, gtid, end.getBinlogFile(), end.getBinlogPosition(),
                id, end.getCommitTimeMs(), null);
    }

    /**
     * @param event an event of a transaction
     * @return whether its transaction's end will carry a commit position: a data event (Maxwell row) with a commit
     *     source and a PostgreSQL id {@code txId:LSN}, a GTID or a binlog position; a BEGIN or END whose id is one
     */
    static boolean carried(SourceEvent event) {
        if (event.getKind() != SourceEventKind.ROW) { // a BEGIN or END: its id has a position's shape
            return event.getCommitLsn() >= 0 || event.getGtid() != null || event.getBinlogFile() != null;
        }
        String source = event.getCommitSource();
        if (source == null) {
            return false;
        }
        if (source.startsWith("postgresql:")) {
            return event.getTransactionId() != null && !event.getTransactionId().equals(event.getTransactionKey());
        }
        return event.getGtid() != null || event.getBinlogFile() != null;
    }

    /**
     * @param previous the commit source's committed position, or {@code null}; for GTIDs its set is taken over and
     *     extended in place (not copied, so a transaction costs no copy of the set): {@code previous} must not be
     *     used afterwards
     * @return this position as committed after {@code previous} (for GTIDs with the committed set), or itself
     */
    public CommitPosition committedAfter(CommitPosition previous) {
        if (kind != Kind.GTID) {
            return this;
        }
        GtidSet set = previous != null && previous.gtidSet != null ? previous.gtidSet : new GtidSet();
        set.add(gtid);
        return new CommitPosition(kind, lsn, gtid, binlogFile, binlogPosition, transactionId, commitTimeMs, set);
    }

    /** @return a copy whose GTID set also holds {@code other}'s GTIDs (neither set changed) */
    CommitPosition withGtidsOf(CommitPosition other) {
        if (gtidSet == null || other.gtidSet == null) {
            return this;
        }
        GtidSet set = gtidSet.copy();
        set.addAll(other.gtidSet);
        return new CommitPosition(kind, lsn, gtid, binlogFile, binlogPosition, transactionId, commitTimeMs, set);
    }

    /**
     * Where this (a transaction's) position lies against a committed one of the same commit source: below it (a
     * re-send), at it (the committed transaction itself, or another at its place: {@link #sameTransactionAs}), above
     * it (new). PostgreSQL compares LSNs; binlog positions compare the file's number (the part after the last
     * {@code .}), then the offset; a GTID is at the committed one when equal, below when in the committed GTID set.
     *
     * @param committed the committed position
     * @return -1, 0 or 1
     * @throws IllegalArgumentException when this transaction lacks the committed position's kind (e.g. Maxwell's
     *     {@code gtid} output turned off after GTID positions were committed)
     */
    public int compareWith(CommitPosition committed) {
        switch (committed.kind) {
            case POSTGRES_LSN:
                requirePart(lsn >= 0, committed);
                return Long.signum(Long.compare(lsn, committed.lsn));
            case GTID:
                requirePart(gtid != null, committed);
                if (gtid.equals(committed.gtid)) {
                    return 0;
                }
                return committed.gtidSet != null && committed.gtidSet.contains(gtid) ? -1 : 1;
            default:
                requirePart(binlogFile != null && binlogPosition >= 0, committed);
                return binlogOrder(binlogFile, binlogPosition, committed.binlogFile, committed.binlogPosition);
        }
    }

    /** @return -1, 0 or 1 as binlog position {@code fileA:posA} is before, at or after {@code fileB:posB} */
    static int binlogOrder(String fileA, long posA, String fileB, long posB) {
        int files = compareBinlogFiles(fileA, fileB);
        return files != 0 ? files : Long.signum(Long.compare(posA, posB));
    }

    /**
     * @return whether this transaction, at the same position as {@code committed}, is the same transaction: the same
     *     transaction id and commit time where both sides have them
     */
    boolean sameTransactionAs(CommitPosition committed) {
        return (transactionId == null || committed.transactionId == null
                || transactionId.equals(committed.transactionId))
                && (commitTimeMs < 0 || committed.commitTimeMs < 0 || commitTimeMs == committed.commitTimeMs);
    }

    private void requirePart(boolean present, CommitPosition committed) {
        if (!present) {
            throw new IllegalArgumentException("the committed position is a " + committed.kind.text()
                    + " position (" + committed.describe() + ") but this transaction's events carry none");
        }
    }

    /** {@code mysql-bin.000010} after {@code mysql-bin.000009}: the number after the last {@code .}, else the text. */
    private static int compareBinlogFiles(String a, String b) {
        int dotA = a.lastIndexOf('.');
        int dotB = b.lastIndexOf('.');
        if (dotA > 0 && dotB > 0 && a.substring(0, dotA).equals(b.substring(0, dotB))) {
            try {
                return Long.signum(Long.compare(Long.parseLong(a.substring(dotA + 1)),
                        Long.parseLong(b.substring(dotB + 1))));
            } catch (NumberFormatException e) {
                // not numbered: by text
            }
        }
        return Integer.signum(a.compareTo(b));
    }

    /** @return the kind */
    public Kind kind() {
        return kind;
    }

    /** @return e.g. {@code LSN 0/171D400 (txId 738)}, {@code GTID uuid:23}, {@code binlog mysql-bin.000003:4711} */
    public String describe() {
        String id = transactionId == null ? "" : " (transaction " + transactionId + ")";
        switch (kind) {
            case POSTGRES_LSN:
                return String.format(Locale.ROOT, "LSN %X/%X", lsn >>> 32, lsn & 0xFFFFFFFFL) + id;
            case GTID:
                return "GTID " + gtid;
            default:
                return "binlog " + binlogFile + ":" + binlogPosition + id;
        }
    }

    /**
     * @return the JSON text (see the class comment)
     * @throws TransactionAssemblyException when it is longer than {@value #MAX_TEXT_BYTES} bytes
     */
    public String toText() {
        ObjectNode node = JSON.createObjectNode();
        node.put("kind", kind.text());
        if (lsn >= 0) {
            node.put("lsn", lsn);
        }
        if (gtid != null) {
            node.put("gtid", gtid.toString());
        }
        if (binlogFile != null) {
            node.put("file", binlogFile);
            node.put("pos", binlogPosition);
        }
        if (transactionId != null) {
            node.put("txId", transactionId);
        }
        node.put("commitTimeMs", commitTimeMs);
        String text = node.toString();
        if (gtidSet != null) { // written by hand: a set of a partition with gaps has up to WINDOW / 2 intervals
            StringBuilder json = new StringBuilder(text.length() + 64).append(text, 0, text.length() - 1)
                    .append(",\"gtidSet\":");
            gtidSet.appendJson(json);
            text = json.append('}').toString();
        }
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_TEXT_BYTES) {
            throw new TransactionAssemblyException("the commit position after " + describe() + " is " + bytes
                    + " bytes of text, over the " + MAX_TEXT_BYTES + " the progress table's commit_position column holds"
                    + (gtidSet != null ? " (a GTID set with " + gtidSet.sourceIds() + " source ids)" : ""));
        }
        return text;
    }

    /**
     * @param text a commit position's text ({@link #toText()})
     * @return the position it holds
     * @throws IllegalArgumentException when the text is not one, naming what is wrong (never the text itself)
     */
    public static CommitPosition parse(String text) {
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        Kind kind = Kind.of(node.path("kind").asText(""));
        Gtid gtid = node.hasNonNull("gtid") ? Gtid.parseOrNull(node.path("gtid").asText()) : null;
        long lsn = node.path("lsn").asLong(-1);
        String file = node.hasNonNull("file") ? node.path("file").asText() : null;
        if (kind == Kind.POSTGRES_LSN && lsn < 0 || kind == Kind.GTID && gtid == null
                || kind == Kind.BINLOG && (file == null || !node.path("pos").canConvertToLong())) {
            throw new IllegalArgumentException("a '" + kind.text() + "' position without its "
                    + (kind == Kind.POSTGRES_LSN ? "'lsn'" : kind == Kind.GTID ? "'gtid'" : "'file' and 'pos'"));
        }
        GtidSet set = null;
        if (node.path("gtidSet").isObject()) {
            Map<String, List<long[]>> map = new LinkedHashMap<>();
            Iterator<Map.Entry<String, JsonNode>> ids = node.path("gtidSet").fields();
            while (ids.hasNext()) {
                Map.Entry<String, JsonNode> id = ids.next();
                List<long[]> list = new ArrayList<>();
                for (JsonNode pair : id.getValue()) {
                    list.add(new long[] {pair.path(0).asLong(-1), pair.path(1).asLong(-1)});
                }
                map.put(id.getKey(), list);
            }
            set = GtidSet.fromMap(map);
        }
        return new CommitPosition(kind, lsn, gtid, file, node.path("pos").asLong(-1),
                node.hasNonNull("txId") ? node.path("txId").asText() : null, node.path("commitTimeMs").asLong(-1), set);
    }
}
