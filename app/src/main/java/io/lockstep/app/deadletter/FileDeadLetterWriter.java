package io.lockstep.app.deadletter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Appends dead letters to a JSON-lines file ({@link DeadLetterFormat}, one line per event), forcing it to disk before
 * {@link #write} returns. Several assembler subtasks may share the file: a letter's lines are appended under a lock
 * (a per-file monitor in this JVM, then an OS file lock against other processes), so letters never interleave.
 * The file is opened per letter (dead letters are rare), so nothing is held open between them.
 */
final class FileDeadLetterWriter implements DeadLetterWriter {

    /** One monitor per file in this JVM: {@link FileChannel#lock} refuses a second lock of one JVM on one file. */
    private static final Map<Path, Object> FILE_MONITORS = new ConcurrentHashMap<>();

    private final Path file;
    private final Clock clock;

    /** @param file the file to append to (created when missing; its directory must exist) */
    FileDeadLetterWriter(Path file, Clock clock) {
        this.file = file.toAbsolutePath().normalize();
        this.clock = clock;
    }

    @Override
    public void write(DeadLetter letter) throws IOException {
        StringBuilder lines = new StringBuilder();
        for (String record : DeadLetterFormat.records(letter, clock.instant())) {
            lines.append(record).append('\n');
        }
        ByteBuffer bytes = ByteBuffer.wrap(lines.toString().getBytes(StandardCharsets.UTF_8));
        synchronized (FILE_MONITORS.computeIfAbsent(file, f -> new Object())) {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND); FileLock lock = channel.lock()) {
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                channel.force(true);
            }
        }
    }

    @Override
    public void close() {
        // nothing held open
    }
}
