package io.lockstep.flink.row;

import com.esotericsoftware.kryo.DefaultSerializer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * The concrete, mutable {@link TableRow} Lockstep's own operators build and keep in state: the four target and
 * content fields plus the source-transaction bookkeeping ({@code transactionEnd}, {@code sourcePartition},
 * {@code sourcePosition}, {@code source}, and on a transaction-end row {@code commitSource} and {@code commitPosition}).
 * A Flink POJO (public no-arg constructor, getters and setters); between
 * operators and in state it travels in its own serializer ({@link LoadRowSerializer}, named through
 * {@code @TypeInfo}).
 *
 * <p>{@code commitSource} and {@code commitPosition} are set only on a transaction-end row, by the transaction
 * assembler that knows its source database's commit position (docs/exactly-once.md); the sink forwards them to the
 * progress table and never parses {@code commitPosition}. {@code coveredPositions} is set only on the end row of a
 * transaction rebuilt from several Kafka topics (docs/exactly-once.md#progress-rows-of-the-multi-topic-layout).
 *
 * <p>Defaults: every string field {@code null}, {@code transactionEnd = false}, {@code sourcePartition = -1},
 * {@code sourcePosition = -1}. {@link #getUniqueKey()} derives {@code database.table} while no explicit key is set.
 * Not thread safe: one instance belongs to one operator (one thread) at a time; even {@link #getRow()} may write
 * (below).
 *
 * <p>The row's text may be held as its UTF-8 bytes instead of a {@code String}: {@link LoadRowFieldsSerializer}
 * keeps the bytes it read for an instance of its plain class, {@link #getRow()} decodes them on its first call (and
 * keeps the {@code String}), {@link #setRow} drops them, and {@link #rowUtf8()} hands them to the sink, so a row that
 * crosses the network on its way to the sink is not decoded and encoded again. The bytes are a {@code transient}
 * field: Flink's POJO analysis and Kryo see the same fields as before, in this class and in a job's subclasses (whose
 * instances never hold bytes: those travel in their own serializer). Where Flink falls back to Kryo for a row (a type
 * that names no row class), {@link LoadRowKryoSerializer} decodes the bytes before Kryo reads the fields.
 *
 * <p>The StarRocks connector's {@code DefaultStarRocksRowData} is this class under its documented name (a subclass
 * that adds only its constructors).
 */
@TypeInfo(LoadRowTypeInfoFactory.class)
@DefaultSerializer(LoadRowKryoSerializer.class)
public non-sealed class LoadRow implements TableRow, SinkInput {

    private String uniqueKey;
    private String database;
    private String table;
    private String row;
    /**
     * The row's UTF-8 encoding as {@link LoadRowFieldsSerializer} read it, or null. While set it is the row's text
     * ({@link #row} is null until {@link #decodedRow()} decodes it, then both hold the same text); never modified.
     * Owned by the thread that owns the row.
     */
    private transient byte[] rowUtf8;

    private boolean transactionEnd;
    private int sourcePartition = -1;
    private long sourcePosition = -1L;
    private String source;
    /**
     * The commit source and position of a transaction-end row (see the class comment), or null. {@code transient}
     * like {@link #rowUtf8}, so that Flink's POJO analysis of a job's subclass and Kryo see the fields they saw
     * before (their records of earlier releases still read): {@link LoadRowFieldsSerializer} writes both after the
     * record, and {@link LoadRowKryoSerializer} refuses a row that holds one. Owned by the thread that owns the row.
     */
    private transient String commitSource;
    private transient String commitPosition;
    /**
     * The covered positions of a transaction-end row (see {@link #setCoveredPositions}), or null. {@code transient}
     * for the same reason as {@link #commitSource}: {@link LoadRowFieldsSerializer} writes it in its own record tags
     * and {@link LoadRowKryoSerializer} refuses a row that holds it. Owned by the thread that owns the row.
     */
    private transient Map<String, Long> coveredPositions;

    /** Creates an empty row: all strings {@code null}, no transaction end, partition -1. */
    public LoadRow() {
    }

    /**
     * Creates a complete row.
     *
     * @param uniqueKey region routing key, or {@code null} to derive {@code database.table}
     * @param database target database
     * @param table target table
     * @param row serialized row (one JSON object or one CSV line)
     */
    public LoadRow(String uniqueKey, String database, String table, String row) {
        this.uniqueKey = uniqueKey;
        this.database = database;
        this.table = table;
        this.row = row;
    }

    /** @param uniqueKey region routing key; {@code null} restores the derived key */
    public void setUniqueKey(String uniqueKey) {
        this.uniqueKey = uniqueKey;
    }

    /** @param database target database */
    public void setDatabase(String database) {
        this.database = database;
    }

    /** @param table target table */
    public void setTable(String table) {
        this.table = table;
    }

    /** @param row serialized row (one JSON object or one CSV line) */
    public void setRow(String row) {
        this.row = row;
        this.rowUtf8 = null;
    }

    /**
     * Sets the row's text as its UTF-8 encoding, without decoding it (for {@link LoadRowFieldsSerializer}).
     *
     * @param utf8 the row's UTF-8 bytes (the row then owns them: never modified afterwards), or null for no row
     */
    void rowFromUtf8(byte[] utf8) {
        this.row = null;
        this.rowUtf8 = utf8;
    }

    /** @return the UTF-8 bytes this row was read as, or null when it holds its text as a {@code String} only */
    byte[] keptRowUtf8() {
        return rowUtf8;
    }

    /**
     * The row's text as UTF-8, for the sink: the bytes the row was deserialized from when it still holds them
     * (no decoding, no copy), else {@link #getRow()} encoded (a subclass's override included); such an encoding
     * is not kept. Not thread safe, like the row.
     *
     * @return the row's UTF-8 bytes, or null when {@link #getRow()} is null; the array may be shared with the row
     *     and with copies of it: callers must not modify it
     */
    public final byte[] rowUtf8() {
        byte[] utf8 = rowUtf8;
        if (utf8 != null) {
            return utf8;
        }
        String text = getRow();
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    /** @param transactionEnd {@code true} if this row is the last of its source transaction */
    public void setTransactionEnd(boolean transactionEnd) {
        this.transactionEnd = transactionEnd;
    }

    /** @param sourcePartition source partition id (&gt;= 0), or -1 when not tracked */
    public void setSourcePartition(int sourcePartition) {
        this.sourcePartition = sourcePartition;
    }

    /**
     * @param sourcePosition position of the row's source transaction in its source partition (&gt;= 0), or -1
     *     when not tracked; see {@link TableRow#getSourcePosition()}
     */
    public void setSourcePosition(long sourcePosition) {
        this.sourcePosition = sourcePosition;
    }

    /** @param source the source name (e.g. the Kafka topic), or {@code null} when not tracked */
    public void setSource(String source) {
        this.source = source;
    }

    /**
     * @param commitSource the source database whose commit position {@link #setCommitPosition} holds (e.g.
     *     {@code postgresql:pg1}), or {@code null}; see {@link TableRow#getCommitSource()}
     */
    public void setCommitSource(String commitSource) {
        this.commitSource = commitSource;
    }

    /**
     * @param commitPosition the opaque commit position text of the row's source transaction, or {@code null}; see
     *     {@link TableRow#getCommitPosition()}
     */
    public void setCommitPosition(String commitPosition) {
        this.commitPosition = commitPosition;
    }

    /**
     * @param coveredPositions on the end row of a transaction rebuilt from several Kafka topics: per read topic
     *     partition, keyed {@code topic/partition}, the highest offset (&gt;= 0) below which nothing of that partition
     *     is still held, which the sink commits with the row's transaction; or null (every other row). The row keeps
     *     the map (not copied): callers must not modify it afterwards. See {@link TableRow#getCoveredPositions()}
     */
    public void setCoveredPositions(Map<String, Long> coveredPositions) {
        this.coveredPositions = coveredPositions;
    }

    /**
     * {@inheritDoc}
     *
     * @return the explicit key if one is set; otherwise {@code database + "." + table}, or
     *     {@code null} when the database or the table is not set either
     */
    @Override
    public String getUniqueKey() {
        if (uniqueKey != null) {
            return uniqueKey;
        }
        if (database == null || table == null) {
            return null;
        }
        return database + "." + table;
    }

    @Override
    public String getDatabase() {
        return database;
    }

    @Override
    public String getTable() {
        return table;
    }

    /**
     * {@inheritDoc}
     *
     * <p>A row still held as UTF-8 bytes (see the class comment) is decoded on the first call and kept.
     */
    @Override
    public String getRow() {
        return decodedRow();
    }

    /**
     * The row's text, decoded from {@link #rowUtf8} (and kept) the first time it is needed; unlike {@link #getRow()}
     * not overridable. Package-private for {@link LoadRowKryoSerializer}.
     */
    String decodedRow() {
        String text = row;
        if (text == null && rowUtf8 != null) {
            text = new String(rowUtf8, StandardCharsets.UTF_8);
            row = text;
        }
        return text;
    }

    @Override
    public boolean isTransactionEnd() {
        return transactionEnd;
    }

    @Override
    public int getSourcePartition() {
        return sourcePartition;
    }

    @Override
    public long getSourcePosition() {
        return sourcePosition;
    }

    @Override
    public String getSource() {
        return source;
    }

    @Override
    public String getCommitSource() {
        return commitSource;
    }

    @Override
    public String getCommitPosition() {
        return commitPosition;
    }

    @Override
    public Map<String, Long> getCoveredPositions() {
        return coveredPositions;
    }

    /**
     * True if a unique key was set (constructor or {@link #setUniqueKey}); false while {@link #getUniqueKey()} derives
     * {@code database.table}. Lets a serializer keep the difference.
     */
    public boolean hasExplicitUniqueKey() {
        return uniqueKey != null;
    }

    /**
     * Equal to any {@code LoadRow} (its documented-name subclass included) with the same eleven fields; a row held
     * as UTF-8 bytes compares by its decoded text (not through an overridable {@link #getRow()}, as before).
     */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof LoadRow that)) {
            return false;
        }
        return transactionEnd == that.transactionEnd
                && sourcePartition == that.sourcePartition
                && sourcePosition == that.sourcePosition
                && Objects.equals(source, that.source)
                && Objects.equals(commitSource, that.commitSource)
                && Objects.equals(commitPosition, that.commitPosition)
                && Objects.equals(coveredPositions, that.coveredPositions)
                && Objects.equals(uniqueKey, that.uniqueKey)
                && Objects.equals(database, that.database)
                && Objects.equals(table, that.table)
                && Objects.equals(decodedRow(), that.decodedRow());
    }

    @Override
    public int hashCode() {
        return Objects.hash(uniqueKey, database, table, decodedRow(), transactionEnd, sourcePartition, sourcePosition,
                source, commitSource, commitPosition, coveredPositions);
    }

    /**
     * Describes the row without its content (rows may hold personal data and must not reach
     * logs): class, target, partition, transaction end and the row's length in characters.
     */
    @Override
    public String toString() {
        String text = decodedRow();
        return getClass().getSimpleName() + "{table=" + database + "." + table
                + (uniqueKey != null ? ", uniqueKey=" + uniqueKey : "")
                + (source != null ? ", source=" + source : "")
                + (commitSource != null ? ", commitSource=" + commitSource : "")
                + (commitPosition != null ? ", commitPositionChars=" + commitPosition.length() : "")
                + (coveredPositions != null ? ", coveredPositions=" + coveredPositions.size() : "")
                + ", sourcePartition=" + sourcePartition
                + (sourcePosition >= 0 ? ", sourcePosition=" + sourcePosition : "")
                + ", transactionEnd=" + transactionEnd
                + ", rowChars=" + (text == null ? "null" : String.valueOf(text.length()))
                + "}";
    }
}
