package io.lockstep.flink.row;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The string fields of {@link LoadRowFieldsSerializer}'s records: a string's UTF-8 length in bytes as an int (-1 for
 * null), then the bytes. Stateless.
 */
final class Utf8Fields {

    private Utf8Fields() {
    }

    /** Writes {@code value} (may be null). */
    static void writeString(String value, DataOutputView target) throws IOException {
        writeBytes(value == null ? null : value.getBytes(StandardCharsets.UTF_8), target);
    }

    /** Writes a string given as its UTF-8 bytes (null for a null string). */
    static void writeBytes(byte[] utf8, DataOutputView target) throws IOException {
        if (utf8 == null) {
            target.writeInt(-1);
            return;
        }
        target.writeInt(utf8.length);
        target.write(utf8);
    }

    /** @return a string as {@link #writeString} wrote it, null for a null string */
    static String readString(DataInputView source) throws IOException {
        byte[] bytes = readBytes(source);
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** @return a UTF-8 string's bytes as {@link #writeBytes} wrote them, null for a null string */
    static byte[] readBytes(DataInputView source) throws IOException {
        int length = source.readInt();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        source.readFully(bytes);
        return bytes;
    }

    /** Copies one string as {@link #writeBytes} wrote it. */
    static void copy(DataInputView source, DataOutputView target) throws IOException {
        int length = source.readInt();
        target.writeInt(length);
        if (length > 0) {
            // not target.write(source, length): Flink's DataOutputSerializer does not grow for that call
            byte[] bytes = new byte[length];
            source.readFully(bytes);
            target.write(bytes);
        }
    }
}
