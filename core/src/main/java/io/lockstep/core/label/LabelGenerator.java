package io.lockstep.core.label;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Produces the labels of one sink subtask. Every label matches the server's rule {@code ^[-\w]{1,128}$}
 * (docs/protocol.md#labels-and-label-state, FE {@code FeNameFormat}; labels are scoped per database).
 *
 * <p>Shapes (fields separated by {@code -}):
 * <ul>
 *   <li>shared multi-table label, one per commit cycle: {@code {prefix}-{subtask}-{runId}-m{cycle}}, read back
 *       with {@link #sharedLabelBaseOf(String)} and {@link #sharedLabelCycle(String)}; cycle 0 is the multi-table
 *       exactly-once mode's registration of the run</li>
 *   <li>closing label of the multi-table exactly-once mode, one per run (it closes the earlier runs it settled):
 *       {@code {prefix}-{subtask}-{runId}-s1}</li>
 *   <li>single-table at-least-once label, one per flush: {@code {prefix}-{table}-{subtask}-{runId}-a{sequence}}</li>
 *   <li>single-table classic stream load label, one per (table, flush):
 *       {@code {prefix}-{table}-{subtask}-{runId}-c{sequence}}</li>
 *   <li>exactly-once label, one per (table, checkpoint), deterministic and parseable with
 *       {@link #parseExactlyOnce(String)}: {@code {prefix}-{table}-{subtask}-{runId}-{checkpointId}}</li>
 *   <li>exactly-once label of a one-load transaction (Doris), one per (table, checkpoint, flush), deterministic:
 *       {@code {prefix}-{table}-{subtask}-{runId}-{checkpointId}_{flush}}</li>
 * </ul>
 * The run identity ({@link RunId}) separates runs: every start of a subtask, fresh or restored, takes a new run id, so
 * its labels never collide with labels an earlier run committed (a restore from an older checkpoint or savepoint, or a
 * stateless start with the same prefix, reuses checkpoint ids). The exactly-once sink stores the run id of its labels
 * in its checkpoint state, so a restore can regenerate, with a generator for that run id, the labels the earlier run
 * may have left open ({@code io.lockstep.core.restart.LingeringTransactionAborter}).
 * The subtask index separates subtasks; the cycle, sequence or checkpoint id separates labels within a run.
 *
 * <p>Table names are written into labels with every character outside {@code [A-Za-z0-9_-]} replaced by
 * {@code _}; when a label would pass 128 characters, the table part is shortened and suffixed with a hash of the
 * full name, so labels stay unique. Immutable and thread-safe.
 */
public final class LabelGenerator {
    /** The server's label rule (docs/protocol.md#labels-and-label-state). */
    public static final Pattern SERVER_LABEL = Pattern.compile("^[-\\w]{1,128}$");
    /** Longest accepted prefix, so that every label shape fits in 128 characters. */
    public static final int MAX_PREFIX_LENGTH = 48;
    private static final Pattern PREFIX = Pattern.compile("^[-\\w]{1," + MAX_PREFIX_LENGTH + "}$");
    private static final int MAX_LABEL_LENGTH = 128;
    private static final String SHARED_MARK = "-m";
    private static final Pattern CYCLE = Pattern.compile("\\d+");

    private final String prefix;
    private final int subtaskIndex;
    private final String runId;

    /**
     * @param prefix       the user's label prefix ({@code sink.label-prefix}); 1..48 characters of
     *                     {@code [A-Za-z0-9_-]}
     * @param subtaskIndex this sink subtask's index, &gt;= 0
     * @param runId        run identity, 1..24 characters of {@code [0-9a-z]} (see {@link RunId})
     * @throws IllegalArgumentException naming the bad value and the rule it breaks
     */
    public LabelGenerator(String prefix, int subtaskIndex, String runId) {
        this.prefix = validatePrefix(prefix);
        if (subtaskIndex < 0) {
            throw new IllegalArgumentException("subtask index must be >= 0, was " + subtaskIndex);
        }
        this.subtaskIndex = subtaskIndex;
        this.runId = RunId.checked(runId);
    }

    /**
     * Checks a label prefix.
     *
     * @return the prefix
     * @throws IllegalArgumentException if it is null, empty, longer than 48 characters or has a character
     *                                  outside {@code [A-Za-z0-9_-]}; the message quotes the prefix
     */
    public static String validatePrefix(String prefix) {
        if (prefix == null || !PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("label prefix '" + prefix + "' is invalid: it must be 1 to "
                    + MAX_PREFIX_LENGTH + " characters of letters, digits, '_' or '-' (server label rule "
                    + SERVER_LABEL.pattern() + ")");
        }
        return prefix;
    }

    /** The label prefix. */
    public String prefix() {
        return prefix;
    }

    /** The subtask index written into labels. */
    public int subtaskIndex() {
        return subtaskIndex;
    }

    /** The run identity written into labels. */
    public String runId() {
        return runId;
    }

    /**
     * The shared label of multi-table commit cycle {@code cycle} (docs/protocol.md#multi-table-transactions).
     *
     * @param cycle the cycle number, &gt;= 0, increasing within a run
     */
    public String sharedLabel(long cycle) {
        requireNonNegative(cycle, "cycle");
        return checked(sharedLabelBase() + cycle);
    }

    /** The base of this run's shared labels, {@code {prefix}-{subtask}-{runId}-m}: a shared label is base + cycle. */
    public String sharedLabelBase() {
        return prefix + "-" + subtaskIndex + "-" + runId + SHARED_MARK;
    }

    /**
     * The label of the one transaction with which this run closes the earlier runs it settled (multi-table
     * exactly-once mode): {@code {prefix}-{subtask}-{runId}-s1}.
     */
    public String closingLabel() {
        return checked(prefix + "-" + subtaskIndex + "-" + runId + "-s1");
    }

    /**
     * The base of a shared label, {@code prefix-3-runid-m17} → {@code prefix-3-runid-m}.
     *
     * @throws IllegalArgumentException quoting the label when it does not end with {@code -m{cycle}}
     */
    public static String sharedLabelBaseOf(String label) {
        int m = label == null ? -1 : label.lastIndexOf(SHARED_MARK);
        if (m < 0 || !CYCLE.matcher(label.substring(m + SHARED_MARK.length())).matches()) {
            throw new IllegalArgumentException("label '" + label + "' is not a shared label "
                    + "({prefix}-{subtask}-{runId}-m{cycle})");
        }
        return label.substring(0, m + SHARED_MARK.length());
    }

    /** The cycle of a shared label ({@code ...-m17} → 17), or -1 when it is not one. */
    public static long sharedLabelCycle(String label) {
        int m = label.lastIndexOf(SHARED_MARK);
        if (m < 0) {
            return -1;
        }
        try {
            return Long.parseLong(label.substring(m + SHARED_MARK.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * The label of single-table at-least-once transaction number {@code sequence} for {@code table}.
     *
     * @param sequence &gt;= 0, increasing within a run
     */
    public String atLeastOnceLabel(String table, long sequence) {
        requireNonNegative(sequence, "sequence");
        return withTable(table, "-" + subtaskIndex + "-" + runId + "-a" + sequence);
    }

    /**
     * The label of classic stream load number {@code sequence} for {@code table} (one per table and flush; a retry of
     * that load reuses it so the server deduplicates, docs/protocol.md#labels-and-label-state).
     *
     * @param sequence &gt;= 0, increasing within a run
     */
    public String classicLabel(String table, long sequence) {
        requireNonNegative(sequence, "sequence");
        return withTable(table, "-" + subtaskIndex + "-" + runId + "-c" + sequence);
    }

    /**
     * The deterministic exactly-once label of {@code table} at checkpoint {@code checkpointId}: the same inputs give
     * the same label, which {@link #parseExactlyOnce(String)} reads back.
     *
     * @param checkpointId the Flink checkpoint id, &gt;= 0
     */
    public String exactlyOnceLabel(String table, long checkpointId) {
        requireNonNegative(checkpointId, "checkpoint id");
        return withTable(table, "-" + subtaskIndex + "-" + runId + "-" + checkpointId);
    }

    /**
     * The deterministic exactly-once label of flush {@code flush} of {@code table} in the epoch that checkpoint
     * {@code checkpointId} prepares: {@code {prefix}-{table}-{subtask}-{runId}-{checkpointId}_{flush}}. Used where
     * one transaction takes one load only (Apache Doris stream load 2PC), so an epoch may hold several
     * transactions per table: flushes under memory pressure, then the one at the barrier.
     *
     * @param checkpointId the Flink checkpoint id, &gt;= 0
     * @param flush        the flush within the epoch, &gt;= 1
     */
    public String exactlyOnceFlushLabel(String table, long checkpointId, int flush) {
        requireNonNegative(checkpointId, "checkpoint id");
        if (flush < 1) {
            throw new IllegalArgumentException("flush must be >= 1, was " + flush);
        }
        return withTable(table, "-" + subtaskIndex + "-" + runId + "-" + checkpointId + "_" + flush);
    }

    /**
     * Reads back an exactly-once label made with this generator's prefix (any subtask, any run).
     *
     * @return the parts, with the table as written into the label (sanitized, possibly shortened)
     * @throws IllegalArgumentException if the label does not have the exactly-once shape under this prefix
     */
    public ExactlyOnceLabel parseExactlyOnce(String label) {
        String start = prefix + "-";
        if (label == null || !label.startsWith(start)) {
            throw new IllegalArgumentException("label '" + label + "' does not start with prefix '" + start + "'");
        }
        String rest = label.substring(start.length());
        int lastDash = rest.lastIndexOf('-');
        int runDash = lastDash <= 0 ? -1 : rest.lastIndexOf('-', lastDash - 1);
        int subtaskDash = runDash <= 0 ? -1 : rest.lastIndexOf('-', runDash - 1);
        if (subtaskDash <= 0) {
            throw new IllegalArgumentException("label '" + label + "' is not an exactly-once label: expected "
                    + "{prefix}-{table}-{subtask}-{runId}-{checkpointId}");
        }
        String table = rest.substring(0, subtaskDash);
        String subtask = rest.substring(subtaskDash + 1, runDash);
        String run = rest.substring(runDash + 1, lastDash);
        String checkpoint = rest.substring(lastDash + 1);
        if (!subtask.matches("\\d{1,9}") || !RunId.isValid(run) || !checkpoint.matches("\\d{1,19}")) {
            throw new IllegalArgumentException("label '" + label + "' is not an exactly-once label: subtask '"
                    + subtask + "', run id '" + run + "' or checkpoint id '" + checkpoint + "' is malformed");
        }
        return new ExactlyOnceLabel(prefix, table, Integer.parseInt(subtask), run, Long.parseLong(checkpoint));
    }

    /** The table name as it appears in labels: characters outside {@code [A-Za-z0-9_-]} become {@code _}. */
    public static String sanitizeTable(String table) {
        Objects.requireNonNull(table, "table");
        if (table.isEmpty()) {
            throw new IllegalArgumentException("table name is empty");
        }
        StringBuilder out = new StringBuilder(table.length());
        for (int i = 0; i < table.length(); i++) {
            char c = table.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
                    || c == '-';
            out.append(ok ? c : '_');
        }
        return out.toString();
    }

    private String withTable(String table, String suffix) {
        String safeTable = sanitizeTable(table);
        int room = MAX_LABEL_LENGTH - prefix.length() - 1 - suffix.length();
        if (safeTable.length() > room) {
            String hash = String.format("%08x", table.hashCode());
            safeTable = safeTable.substring(0, Math.max(1, room - hash.length() - 1)) + "_" + hash;
        }
        return checked(prefix + "-" + safeTable + suffix);
    }

    private static String checked(String label) {
        if (!SERVER_LABEL.matcher(label).matches()) {
            throw new IllegalStateException("generated label '" + label + "' breaks the server rule "
                    + SERVER_LABEL.pattern());
        }
        return label;
    }

    private static void requireNonNegative(long value, String what) {
        if (value < 0) {
            throw new IllegalArgumentException(what + " must be >= 0, was " + value);
        }
    }
}
