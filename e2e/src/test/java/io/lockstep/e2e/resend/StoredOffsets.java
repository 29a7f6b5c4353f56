package io.lockstep.e2e.resend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads the source offset a connector last flushed into Kafka Connect's {@code FileOffsetBackingStore}: the file holds
 * a Java-serialized {@code HashMap<byte[], byte[]>} of source partition to source offset, each a JSON document (Kafka
 * Connect 4.1 {@code FileOffsetBackingStore.load}/{@code save}).
 */
public final class StoredOffsets {

    private static final ObjectMapper JSON = new ObjectMapper();

    private StoredOffsets() {
    }

    /**
     * @param file the offset file
     * @return its one source offset, or {@code null} while the file is missing or still being written
     */
    public static JsonNode readIfFlushed(Path file) throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        try {
            return readSingle(file);
        } catch (java.io.EOFException | java.io.StreamCorruptedException e) {
            return null; // the first flush is writing it
        }
    }

    /**
     * @param file the offset file
     * @return the one source offset in it (a PostgreSQL connector has one source partition), e.g.
     *     {@code {"lsn_proc":..., "lsn":..., "txId":..., "transaction_id":..., ...}}
     * @throws IllegalStateException when the file does not hold exactly one offset
     */
    public static JsonNode readSingle(Path file) throws IOException {
        Object stored;
        try (InputStream in = Files.newInputStream(file); ObjectInputStream objects = new ObjectInputStream(in)) {
            stored = objects.readObject();
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(file + " is not a FileOffsetBackingStore file", e);
        }
        if (!(stored instanceof Map<?, ?> offsets) || offsets.size() != 1) {
            throw new IllegalStateException(file + " should hold one source offset, holds " + stored);
        }
        Object value = offsets.values().iterator().next();
        return JSON.readTree((byte[]) value);
    }
}
