package io.lockstep.flink.row;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.FieldSerializer;

/**
 * Kryo's serializer of the plain row classes ({@link LoadRow} and the StarRocks connector's
 * {@code DefaultStarRocksRowData}, both annotated with Kryo's {@code @DefaultSerializer}, which subclasses do not
 * inherit): Kryo's own {@link FieldSerializer}, with the same fields and the same bytes, except that it first decodes
 * a row still held as the UTF-8 bytes {@link LoadRowFieldsSerializer} read ({@link LoadRow#rowUtf8()}). Without that,
 * Kryo, which reads the fields and skips the transient bytes, would write such a row as having no text. Flink uses
 * Kryo for a row only where a job's type names no row class (e.g. a stream or state of the {@code StarRocksRowData}
 * or {@link TableRow} interface).
 *
 * <p>Compiles against Kryo 2.24 (Flink 1.20) and Kryo 5 (Flink 2.x): the constructor and {@code write} are the same
 * in both. Not thread-safe, like every Kryo serializer (Flink keeps one Kryo per serializer instance).
 *
 * @param <T> the row class
 */
public class LoadRowKryoSerializer<T extends LoadRow> extends FieldSerializer<T> {

    /**
     * The constructor Kryo calls for a {@code @DefaultSerializer} class.
     *
     * @param kryo the Kryo instance
     * @param type the annotated row class
     */
    public LoadRowKryoSerializer(Kryo kryo, Class<T> type) {
        super(kryo, type);
    }

    /**
     * Decodes a row held as UTF-8 bytes, then writes the fields as {@link FieldSerializer} does.
     *
     * @throws IllegalStateException for a row with a commit source or position or covered positions: those are
     *     transient fields Kryo does not write (so that Kryo records of earlier releases still read), and dropping
     *     them would lose the commit position or covered positions without a word; type the stream as
     *     {@link LoadRow} (its own serializer carries them)
     */
    @Override
    public void write(Kryo kryo, Output output, T row) {
        if (row.getCommitSource() != null || row.getCommitPosition() != null || row.getCoveredPositions() != null) {
            throw new IllegalStateException("row " + row + " carries a commit position or covered positions, "
                    + "which Kryo cannot carry: type the stream or state as LoadRow (or SinkInput) instead of an "
                    + "interface, so that Flink uses the row's own serializer");
        }
        row.decodedRow();
        super.write(kryo, output, row);
    }
}
