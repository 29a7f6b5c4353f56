package io.lockstep.app.assemble;

import io.lockstep.app.create.TableCreation;
import io.lockstep.app.deadletter.DeadLetterTarget;
import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.SchemaChangeMode;
import java.io.Serializable;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Bounds and error handling of a transaction assembler. Immutable.
 *
 * @param maxRows most sink rows one source transaction may buffer (&gt; 0)
 * @param maxSizeBytes most bytes (UTF-8 row text) one source transaction may buffer (&gt; 0)
 * @param maxOpenMs longest time in ms, by the processing-time clock, a source transaction may stay open
 *     (&gt; 0)
 * @param boundMode what happens when a bound is exceeded
 * @param badInputMode what happens to events that break the transaction framing (data outside a
 *     transaction, END without BEGIN)
 * @param schemaChangeMode what happens at a schema change (DDL event)
 * @param deadLetter where source transactions the job cannot load go whole (an undecodable event, a row of an
 *     unknown table, a row over {@code maxSizeBytes}, a value its column would not take unchanged) instead of failing the job; {@code null} for none
 *     (docs/dead-letter.md)
 * @param inputResumes {@code true} when the input ends at offsets a later run continues from (Kafka
 *     {@code --bounded}): a source transaction still open at the end of the input is logged in one WARN and left
 *     for the next run; {@code false} (a file, {@code --input}): it fails the job, as it can never be completed
 * @param committedPositions the seed of the source commit positions: source partition to commit source
 *     ({@code postgresql:pg1}, {@code maxwell}...) to its committed position's text, as the progress table held them
 *     when the run started ({@code #commit:} rows; {@link CommittedSourcePositions}); empty for none. Kept as an
 *     unmodifiable copy of {@link HashMap}s (serializable)
 * @param tableCreation with {@code lockstep run --create-tables}: how a target table the target lacks is created ahead
 *     of the first transaction holding a row of it (docs/table-creation.md#tables-created-mid-stream); {@code null}
 *     when tables are not created (such rows follow {@code --unknown-table})
 */
public record AssemblerOptions(long maxRows, long maxSizeBytes, long maxOpenMs, BoundMode boundMode,
        BadInputMode badInputMode, SchemaChangeMode schemaChangeMode, DeadLetterTarget deadLetter,
        boolean inputResumes, Map<Integer, Map<String, String>> committedPositions, TableCreation tableCreation)
        implements Serializable {

    /** Default row bound: 1,000,000 rows. */
    public static final long DEFAULT_MAX_ROWS = 1_000_000L;
    /** Default size bound: 256 MiB. */
    public static final long DEFAULT_MAX_SIZE_BYTES = 256L * 1024 * 1024;
    /** Default time bound: 10 minutes. */
    public static final long DEFAULT_MAX_OPEN_MS = 10 * 60 * 1000L;

    /** @throws IllegalArgumentException when a bound is not positive */
    public AssemblerOptions {
        if (maxRows <= 0 || maxSizeBytes <= 0 || maxOpenMs <= 0) {
            throw new IllegalArgumentException("assembler bounds must be positive: maxRows=" + maxRows
                    + ", maxSizeBytes=" + maxSizeBytes + ", maxOpenMs=" + maxOpenMs);
        }
        Objects.requireNonNull(boundMode, "boundMode");
        Objects.requireNonNull(badInputMode, "badInputMode");
        Objects.requireNonNull(schemaChangeMode, "schemaChangeMode");
        HashMap<Integer, Map<String, String>> copy = new HashMap<>();
        if (committedPositions != null) {
            committedPositions.forEach((partition, sources) -> copy.put(partition,
                    Collections.unmodifiableMap(new HashMap<>(sources))));
        }
        committedPositions = Collections.unmodifiableMap(copy);
    }

    /** The options without table creation; the others as in the canonical constructor. */
    public AssemblerOptions(long maxRows, long maxSizeBytes, long maxOpenMs, BoundMode boundMode,
            BadInputMode badInputMode, SchemaChangeMode schemaChangeMode, DeadLetterTarget deadLetter,
            boolean inputResumes, Map<Integer, Map<String, String>> committedPositions) {
        this(maxRows, maxSizeBytes, maxOpenMs, boundMode, badInputMode, schemaChangeMode, deadLetter, inputResumes,
                committedPositions, null);
    }

    /** The options without a seed of committed source positions. */
    public AssemblerOptions(long maxRows, long maxSizeBytes, long maxOpenMs, BoundMode boundMode,
            BadInputMode badInputMode, SchemaChangeMode schemaChangeMode, DeadLetterTarget deadLetter,
            boolean inputResumes) {
        this(maxRows, maxSizeBytes, maxOpenMs, boundMode, badInputMode, schemaChangeMode, deadLetter, inputResumes,
                null);
    }

    /** The options with an input that does not resume ({@code inputResumes = false}). */
    public AssemblerOptions(long maxRows, long maxSizeBytes, long maxOpenMs, BoundMode boundMode,
            BadInputMode badInputMode, SchemaChangeMode schemaChangeMode, DeadLetterTarget deadLetter) {
        this(maxRows, maxSizeBytes, maxOpenMs, boundMode, badInputMode, schemaChangeMode, deadLetter, false);
    }

    /** The options without a dead letter; the others as in the canonical constructor. */
    public AssemblerOptions(long maxRows, long maxSizeBytes, long maxOpenMs, BoundMode boundMode,
            BadInputMode badInputMode, SchemaChangeMode schemaChangeMode) {
        this(maxRows, maxSizeBytes, maxOpenMs, boundMode, badInputMode, schemaChangeMode, null);
    }

    /** The options with {@link SchemaChangeMode#FAIL}; the others as in the canonical constructor. */
    public AssemblerOptions(long maxRows, long maxSizeBytes, long maxOpenMs, BoundMode boundMode,
            BadInputMode badInputMode) {
        this(maxRows, maxSizeBytes, maxOpenMs, boundMode, badInputMode, SchemaChangeMode.FAIL);
    }

    /** @return the defaults: 1,000,000 rows, 256 MiB, 10 minutes, fail on both */
    public static AssemblerOptions defaults() {
        return new AssemblerOptions(DEFAULT_MAX_ROWS, DEFAULT_MAX_SIZE_BYTES, DEFAULT_MAX_OPEN_MS,
                BoundMode.FAIL, BadInputMode.FAIL);
    }

    /** @return a copy with another row bound */
    public AssemblerOptions withMaxRows(long rows) {
        return new AssemblerOptions(rows, maxSizeBytes, maxOpenMs, boundMode, badInputMode, schemaChangeMode,
                deadLetter, inputResumes, committedPositions, tableCreation);
    }

    /** @return a copy with another size bound in bytes */
    public AssemblerOptions withMaxSizeBytes(long bytes) {
        return new AssemblerOptions(maxRows, bytes, maxOpenMs, boundMode, badInputMode, schemaChangeMode,
                deadLetter, inputResumes, committedPositions, tableCreation);
    }

    /** @return a copy with another time bound in ms */
    public AssemblerOptions withMaxOpenMs(long ms) {
        return new AssemblerOptions(maxRows, maxSizeBytes, ms, boundMode, badInputMode, schemaChangeMode,
                deadLetter, inputResumes, committedPositions, tableCreation);
    }

    /** @return a copy with another bound mode */
    public AssemblerOptions withBoundMode(BoundMode mode) {
        return new AssemblerOptions(maxRows, maxSizeBytes, maxOpenMs, mode, badInputMode, schemaChangeMode,
                deadLetter, inputResumes, committedPositions, tableCreation);
    }

    /** @return a copy with another schema-change mode */
    public AssemblerOptions withSchemaChangeMode(SchemaChangeMode mode) {
        return new AssemblerOptions(maxRows, maxSizeBytes, maxOpenMs, boundMode, badInputMode, mode,
                deadLetter, inputResumes, committedPositions, tableCreation);
    }

    /** @return a copy with another dead-letter destination ({@code null}: none) */
    public AssemblerOptions withDeadLetter(DeadLetterTarget target) {
        return new AssemblerOptions(maxRows, maxSizeBytes, maxOpenMs, boundMode, badInputMode, schemaChangeMode,
                target, inputResumes, committedPositions, tableCreation);
    }

    /** @return a copy with another bad-input mode */
    public AssemblerOptions withBadInputMode(BadInputMode mode) {
        return new AssemblerOptions(maxRows, maxSizeBytes, maxOpenMs, boundMode, mode, schemaChangeMode,
                deadLetter, inputResumes, committedPositions, tableCreation);
    }

    /**
     * Seeds the source commit positions (what {@code lockstep run} read from the progress table's {@code #commit:}
     * rows before the job).
     *
     * @param positions source partition to commit source to committed position text; {@code null} for none
     * @return a copy with that seed
     */
    public AssemblerOptions withCommittedPositions(Map<Integer, Map<String, String>> positions) {
        return new AssemblerOptions(maxRows, maxSizeBytes, maxOpenMs, boundMode, badInputMode, schemaChangeMode,
                deadLetter, inputResumes, positions, tableCreation);
    }

    /** @return a copy whose input resumes at a later run ({@code true}: Kafka) or not ({@code false}: a file) */
    public AssemblerOptions withInputResumes(boolean resumes) {
        return new AssemblerOptions(maxRows, maxSizeBytes, maxOpenMs, boundMode, badInputMode, schemaChangeMode,
                deadLetter, resumes, committedPositions, tableCreation);
    }

    /**
     * @param creation how missing target tables are created ({@code --create-tables}), or {@code null} for none
     * @return a copy with that table creation
     */
    public AssemblerOptions withTableCreation(TableCreation creation) {
        return new AssemblerOptions(maxRows, maxSizeBytes, maxOpenMs, boundMode, badInputMode, schemaChangeMode,
                deadLetter, inputResumes, committedPositions, creation);
    }
}
