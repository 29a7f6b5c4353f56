package io.lockstep.flink.row;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import javax.annotation.concurrent.NotThreadSafe;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.java.typeutils.TypeExtractor;
import org.apache.flink.api.java.typeutils.runtime.PojoSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * Flink's serializer of a {@link LoadRow} class (its "plain" class: {@link LoadRow} itself, or the StarRocks
 * connector's {@code DefaultStarRocksRowData}) and of its subclasses: the ten fields written one after the other,
 * without the reflection and per-field null flags of Flink's generic POJO serializer that used to carry the rows.
 * The record format does not depend on the plain class, so state written for one plain class reads as the other
 * ({@link FieldsSnapshot}).
 *
 * <p>Format, version 1: a tag byte; {@value #FIELDS}: {@code uniqueKey} (only an explicitly set one, null while it
 * is derived), {@code database}, {@code table}, {@code row}, {@code source} (each a string: its UTF-8 length in bytes
 * as an int, -1 for null, then the bytes), then {@code transactionEnd} (boolean), {@code sourcePartition} (int),
 * {@code sourcePosition} (long); {@value #FIELDS_COMMIT}: the same, then {@code commitSource} and
 * {@code commitPosition} (strings as above), written only for a row that carries one of them (a transaction end with
 * its source database's commit position), so every other row costs nothing more and is written byte for byte as the
 * previous release wrote it, and its checkpoints restore; {@value #SUBCLASS}: an instance of a subclass (e.g. a job's
 * own rows): its class name, then the record in the serializer Flink's type analysis gives that class (as the POJO
 * serializer did), so it keeps its class and fields; {@value #SUBCLASS_COMMIT}: the same, then the two commit strings
 * (transient fields, which that serializer does not see); {@value #FIELDS_COVERED} and {@value #SUBCLASS_COVERED}:
 * as {@value #FIELDS_COMMIT} and {@value #SUBCLASS_COMMIT} (the two commit strings, either may be null), then the
 * row's {@code coveredPositions} (an int count, then per entry its key as a string and its position as a long),
 * written only for the end row of a transaction rebuilt from several topics. {@value #FIELDS_STRING_VALUE} is what
 * earlier versions wrote for a plain row (the same fields, the strings as Flink {@link StringValue}s): still read,
 * never written, so that their savepoints restore with the same serializer snapshot. The snapshot did not change
 * with the commit and covered tags: this serializer reads every record an earlier one wrote (an earlier release
 * refuses tags 3 to 6 by name).
 *
 * <p>Why UTF-8: the strings are mostly the row's JSON, which the sink sends as UTF-8 anyway. The JDK encodes and
 * decodes a Latin-1 string to and from UTF-8 with bulk copies, where {@link StringValue} walks it char by char: in
 * the benchmark's multi-table job (200 B rows across a keyBy) the StringValue encoding and decoding were a quarter of
 * all samples (the JFR hot spots of {@code ./bench/run report}, section end-to-end; see bench/README.md). A string
 * with an unpaired surrogate char (not valid UTF-16) crosses with {@code ?} in its place, which is also what loading
 * it as UTF-8 would make of it.
 *
 * <p>The row's text is not decoded: a plain row keeps the UTF-8 bytes it was read as ({@link LoadRow#rowUtf8()}),
 * decodes them only if something calls {@link LoadRow#getRow()}, and is written again from them (a second keyBy) as
 * is its {@linkplain #copy(LoadRow) copy}, which shares them. The bytes written are those of {@code getRow()} either
 * way, since the serializer only ever writes a String's UTF-8 encoding (well-formed UTF-8).
 *
 * <p>Not thread-safe (it caches the subclasses' serializers): Flink {@linkplain #duplicate() duplicates} it per thread.
 *
 * @param <T> the plain row class
 */
@NotThreadSafe
public abstract class LoadRowFieldsSerializer<T extends LoadRow> extends TypeSerializer<T> {
    private static final long serialVersionUID = 1L;
    /** A plain row as earlier versions wrote it (strings as {@link StringValue}s): read only. */
    static final byte FIELDS_STRING_VALUE = 0;
    static final byte SUBCLASS = 1;
    /** A plain row, strings as UTF-8, without a commit position (the bytes of the previous release). */
    static final byte FIELDS = 2;
    /** A plain row, strings as UTF-8, then its {@code commitSource} and {@code commitPosition}. */
    static final byte FIELDS_COMMIT = 3;
    /** An instance of a subclass as {@link #SUBCLASS}, then its {@code commitSource} and {@code commitPosition}. */
    static final byte SUBCLASS_COMMIT = 4;
    /** As {@link #FIELDS_COMMIT}, then the row's {@code coveredPositions}. */
    static final byte FIELDS_COVERED = 5;
    /** As {@link #SUBCLASS_COMMIT}, then the row's {@code coveredPositions}. */
    static final byte SUBCLASS_COVERED = 6;

    /** The class written as {@link #FIELDS}; any other class is a subclass. */
    private final Class<T> plain;
    /** Configures the subclasses' serializers (Kryo registrations of the job). */
    private final SerializerConfig config;
    /** Serializers of the subclasses met so far, by class name; this instance's thread only. */
    private transient Map<String, TypeSerializer<T>> subclasses;

    /**
     * @param plain the class written as {@link #FIELDS}; it has a public no-arg constructor ({@link #newRow()})
     * @param config configures the subclasses' serializers
     */
    protected LoadRowFieldsSerializer(Class<T> plain, SerializerConfig config) {
        this.plain = plain;
        this.config = config;
    }

    /** @return an empty instance of the plain class */
    protected abstract T newRow();

    /** @return the job's serializer configuration, for {@link #duplicate()} */
    protected final SerializerConfig config() {
        return config;
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public T createInstance() {
        return newRow();
    }

    @Override
    public T copy(T from) {
        if (from.getClass() != plain) {
            T copy = subclassSerializer(from.getClass()).copy(from);
            copy.setCommitSource(from.getCommitSource()); // transient: not a field of the subclass's serializer
            copy.setCommitPosition(from.getCommitPosition());
            copy.setCoveredPositions(CoveredPositionsFormat.copyOf(from.getCoveredPositions()));
            return copy;
        }
        return copyFields(from, newRow());
    }

    @Override
    public T copy(T from, T reuse) {
        if (from.getClass() != plain || reuse.getClass() != plain) {
            return copy(from);
        }
        return copyFields(from, reuse);
    }

    private static <R extends LoadRow> R copyFields(LoadRow from, R to) {
        to.setUniqueKey(explicitUniqueKey(from));
        to.setDatabase(from.getDatabase());
        to.setTable(from.getTable());
        byte[] utf8 = from.keptRowUtf8();
        if (utf8 != null) {
            to.rowFromUtf8(utf8); // shared: a row never modifies the bytes it holds
        } else {
            to.setRow(from.getRow());
        }
        to.setSource(from.getSource());
        to.setTransactionEnd(from.isTransactionEnd());
        to.setSourcePartition(from.getSourcePartition());
        to.setSourcePosition(from.getSourcePosition());
        to.setCommitSource(from.getCommitSource());
        to.setCommitPosition(from.getCommitPosition());
        to.setCoveredPositions(CoveredPositionsFormat.copyOf(from.getCoveredPositions()));
        return to;
    }

    /** The unique key set on the row, or null while {@code getUniqueKey()} derives it from database and table. */
    private static String explicitUniqueKey(LoadRow row) {
        return row.hasExplicitUniqueKey() ? row.getUniqueKey() : null;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(T record, DataOutputView target) throws IOException {
        String commitSource = record.getCommitSource();
        String commitPosition = record.getCommitPosition();
        Map<String, Long> covered = record.getCoveredPositions();
        boolean commit = commitSource != null || commitPosition != null || covered != null; // transaction ends only
        if (record.getClass() != plain) {
            target.writeByte(covered != null ? SUBCLASS_COVERED : commit ? SUBCLASS_COMMIT : SUBCLASS);
            target.writeUTF(record.getClass().getName());
            subclassSerializer(record.getClass()).serialize(record, target);
            if (commit) {
                Utf8Fields.writeString(commitSource, target);
                Utf8Fields.writeString(commitPosition, target);
            }
            if (covered != null) {
                CoveredPositionsFormat.write(covered, target);
            }
            return;
        }
        target.writeByte(covered != null ? FIELDS_COVERED : commit ? FIELDS_COMMIT : FIELDS);
        Utf8Fields.writeString(explicitUniqueKey(record), target);
        Utf8Fields.writeString(record.getDatabase(), target);
        Utf8Fields.writeString(record.getTable(), target);
        Utf8Fields.writeBytes(record.rowUtf8(), target); // the bytes it was read as, if it still holds them
        Utf8Fields.writeString(record.getSource(), target);
        target.writeBoolean(record.isTransactionEnd());
        target.writeInt(record.getSourcePartition());
        target.writeLong(record.getSourcePosition());
        if (commit) {
            Utf8Fields.writeString(commitSource, target);
            Utf8Fields.writeString(commitPosition, target);
        }
        if (covered != null) {
            CoveredPositionsFormat.write(covered, target);
        }
    }

    @Override
    public T deserialize(DataInputView source) throws IOException {
        return deserialize(null, source);
    }

    /**
     * @throws IOException for an unknown tag or a subclass that cannot be loaded (named)
     */
    @Override
    public T deserialize(T reuse, DataInputView source) throws IOException {
        byte tag = source.readByte();
        if (tag == SUBCLASS || tag == SUBCLASS_COMMIT || tag == SUBCLASS_COVERED) {
            T row = subclassSerializer(source.readUTF()).deserialize(source);
            if (tag != SUBCLASS) {
                row.setCommitSource(Utf8Fields.readString(source));
                row.setCommitPosition(Utf8Fields.readString(source));
            }
            if (tag == SUBCLASS_COVERED) {
                row.setCoveredPositions(CoveredPositionsFormat.read(source));
            }
            return row;
        }
        boolean utf8 = checkFieldsTag(tag);
        boolean commit = tag == FIELDS_COMMIT || tag == FIELDS_COVERED;
        T row = reuse != null && reuse.getClass() == plain ? reuse : newRow();
        row.setUniqueKey(readString(utf8, source));
        row.setDatabase(readString(utf8, source));
        row.setTable(readString(utf8, source));
        if (utf8) {
            row.rowFromUtf8(Utf8Fields.readBytes(source)); // decoded only if someone asks for getRow()
        } else {
            row.setRow(StringValue.readString(source));
        }
        row.setSource(readString(utf8, source));
        row.setTransactionEnd(source.readBoolean());
        row.setSourcePartition(source.readInt());
        row.setSourcePosition(source.readLong());
        row.setCommitSource(commit ? Utf8Fields.readString(source) : null);
        row.setCommitPosition(commit ? Utf8Fields.readString(source) : null);
        row.setCoveredPositions(tag == FIELDS_COVERED ? CoveredPositionsFormat.read(source) : null);
        return row;
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        byte tag = source.readByte();
        target.writeByte(tag);
        if (tag == SUBCLASS || tag == SUBCLASS_COMMIT || tag == SUBCLASS_COVERED) {
            String name = source.readUTF();
            target.writeUTF(name);
            subclassSerializer(name).copy(source, target);
            if (tag != SUBCLASS) {
                Utf8Fields.copy(source, target);
                Utf8Fields.copy(source, target);
            }
            if (tag == SUBCLASS_COVERED) {
                CoveredPositionsFormat.copy(source, target);
            }
            return;
        }
        boolean utf8 = checkFieldsTag(tag);
        for (int i = 0; i < 5; i++) {
            if (utf8) {
                Utf8Fields.copy(source, target);
            } else {
                StringValue.copyString(source, target);
            }
        }
        target.writeBoolean(source.readBoolean());
        target.writeInt(source.readInt());
        target.writeLong(source.readLong());
        if (tag == FIELDS_COMMIT || tag == FIELDS_COVERED) {
            Utf8Fields.copy(source, target);
            Utf8Fields.copy(source, target);
        }
        if (tag == FIELDS_COVERED) {
            CoveredPositionsFormat.copy(source, target);
        }
    }

    /**
     * @return true for {@link #FIELDS}, {@link #FIELDS_COMMIT} and {@link #FIELDS_COVERED} (UTF-8 strings), false for
     *     {@link #FIELDS_STRING_VALUE}
     * @throws IOException for any other tag, naming it
     */
    private boolean checkFieldsTag(byte tag) throws IOException {
        if (tag != FIELDS && tag != FIELDS_COMMIT && tag != FIELDS_COVERED && tag != FIELDS_STRING_VALUE) {
            throw new IOException("unknown " + plain.getSimpleName() + " record tag " + tag + " (expected "
                    + FIELDS_STRING_VALUE + " to " + SUBCLASS_COVERED + ")");
        }
        return tag != FIELDS_STRING_VALUE;
    }

    /** @return a string as {@link #FIELDS} ({@code utf8}) or {@link #FIELDS_STRING_VALUE} wrote it */
    private static String readString(boolean utf8, DataInputView source) throws IOException {
        return utf8 ? Utf8Fields.readString(source) : StringValue.readString(source);
    }

    private TypeSerializer<T> subclassSerializer(Class<?> type) {
        return subclassSerializer(type.getName(), type);
    }

    private TypeSerializer<T> subclassSerializer(String name) throws IOException {
        try {
            return subclassSerializer(name, null);
        } catch (IllegalStateException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private TypeSerializer<T> subclassSerializer(String name, Class<?> known) {
        if (subclasses == null) {
            subclasses = new HashMap<>();
        }
        TypeSerializer<T> serializer = subclasses.get(name);
        if (serializer == null) {
            Class<?> type = known != null ? known : load(name);
            if (!plain.isAssignableFrom(type)) {
                throw new IllegalStateException("class " + name + " is not a " + plain.getSimpleName());
            }
            serializer = (TypeSerializer<T>) TypeExtractor.createTypeInfo(type).createSerializer(config);
            subclasses.put(name, serializer);
        }
        return serializer;
    }

    private Class<?> load(String name) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try {
            return Class.forName(name, false, loader != null ? loader : plain.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("cannot load " + plain.getSimpleName() + " subclass " + name + " of a "
                    + "serialized record: " + e.getMessage(), e);
        }
    }

    /** Equal to a serializer of the same class (which fixes the plain class). */
    @Override
    public boolean equals(Object obj) {
        return obj != null && obj.getClass() == getClass();
    }

    @Override
    public int hashCode() {
        return getClass().hashCode();
    }

    /**
     * The snapshot (version 1, no payload) of a {@link LoadRowFieldsSerializer}. Compatibility, judged by the new
     * serializer's snapshot against the one a checkpoint or savepoint holds:
     * <ul>
     *   <li>the snapshot of a {@code LoadRowFieldsSerializer} whose plain class is this one's or a subclass of it
     *       (its own, or e.g. state written for {@code DefaultStarRocksRowData} restored as {@link LoadRow}):
     *       compatible as is, the records are the same and a heap state backend's restored instances are of the
     *       right type; a plain record then reads as this serializer's plain class;</li>
     *   <li>a {@link PojoSerializerSnapshot} of the plain class (the generic POJO serializer the class had before):
     *       compatible after migration: Flink reads the state with the POJO serializer restored from that snapshot
     *       and writes it again with this one;</li>
     *   <li>anything else: as {@link SimpleTypeSerializerSnapshot} decides (incompatible).</li>
     * </ul>
     *
     * @param <T> the plain row class
     */
    public abstract static class FieldsSnapshot<T extends LoadRow> extends SimpleTypeSerializerSnapshot<T> {
        private final Class<T> plain;

        /**
         * @param plain the plain row class of the serializer
         * @param serializer makes the serializer this snapshot restores
         */
        protected FieldsSnapshot(Class<T> plain, Supplier<? extends TypeSerializer<T>> serializer) {
            super(serializer);
            this.plain = plain;
        }

        @Override
        public TypeSerializerSchemaCompatibility<T> resolveSchemaCompatibility(
                TypeSerializerSnapshot<T> oldSerializerSnapshot) {
            if (oldSerializerSnapshot instanceof FieldsSnapshot<?> fields && plain.isAssignableFrom(fields.plain)) {
                return TypeSerializerSchemaCompatibility.compatibleAsIs();
            }
            if (oldSerializerSnapshot instanceof PojoSerializerSnapshot
                    && oldSerializerSnapshot.restoreSerializer().createInstance().getClass() == plain) {
                return TypeSerializerSchemaCompatibility.compatibleAfterMigration();
            }
            return super.resolveSchemaCompatibility(oldSerializerSnapshot);
        }
    }
}
