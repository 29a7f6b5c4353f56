package io.lockstep.flink.row;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A row's covered positions ({@link LoadRow#getCoveredPositions()}) in {@link LoadRowFieldsSerializer}'s records:
 * an int count, then per entry its key ({@code topic/partition}, a {@link Utf8Fields} string) and its position (a
 * long). Stateless.
 */
final class CoveredPositionsFormat {

    private CoveredPositionsFormat() {
    }

    /** @throws IllegalArgumentException for a null key or position, naming the entry */
    static void write(Map<String, Long> covered, DataOutputView target) throws IOException {
        target.writeInt(covered.size());
        for (Map.Entry<String, Long> entry : covered.entrySet()) {
            if (entry.getKey() == null || entry.getValue() == null) {
                throw new IllegalArgumentException("covered positions hold a null key or position (" + entry.getKey()
                        + "=" + entry.getValue() + "): each is a topic/partition key with an offset");
            }
            Utf8Fields.writeString(entry.getKey(), target);
            target.writeLong(entry.getValue());
        }
    }

    /**
     * @return the covered positions as {@link #write} wrote them, in their written order
     * @throws IOException for a negative count (a corrupt record)
     */
    static Map<String, Long> read(DataInputView source) throws IOException {
        int count = source.readInt();
        if (count < 0) {
            throw new IOException("corrupt LoadRow record: covered positions count " + count);
        }
        Map<String, Long> covered = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            String key = Utf8Fields.readString(source);
            covered.put(key, source.readLong());
        }
        return covered;
    }

    /** Copies covered positions as {@link #write} wrote them. */
    static void copy(DataInputView source, DataOutputView target) throws IOException {
        int count = source.readInt();
        target.writeInt(count);
        for (int i = 0; i < count; i++) {
            Utf8Fields.copy(source, target);
            target.writeLong(source.readLong());
        }
    }

    /** @return a copy of a row's covered positions (a copied row must not share a map the original may change) */
    static Map<String, Long> copyOf(Map<String, Long> covered) {
        return covered == null ? null : new LinkedHashMap<>(covered);
    }
}
