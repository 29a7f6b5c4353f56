package io.lockstep.app.file;

import io.lockstep.app.event.SourceRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A JSON-lines file (one CDC message per line, as a Kafka topic would hold them) as the job's bounded input, for
 * trying the job without Kafka ({@code lockstep run --input FILE}). Each non-blank line becomes one
 * {@link SourceRecord} of source partition 0 with the topic {@code file:<name>} and the line number (from 1) as
 * its offset, so an error names the line: {@code topic 'file:bank.jsonl' partition 0 offset 7}. Decoding,
 * assembly and loading are the same as from Kafka.
 *
 * <p>The file is read when the job is defined and its lines travel inside the job (Flink's {@code fromData}),
 * which suits sample and test files, not backfills of gigabytes (load those into a topic and use
 * {@code --bounded}). A restore from a checkpoint continues after the lines already read, of the file as it was
 * then: {@code lockstep run} refuses to restore when the file changed since ({@link InputFileStamp}).
 */
public final class JsonLinesInput {

    /** Source partition of every record. */
    public static final int PARTITION = 0;

    private JsonLinesInput() {
    }

    /**
     * @param file the JSON-lines file, UTF-8
     * @return its records, in file order
     * @throws UncheckedIOException naming the file when it cannot be read
     * @throws IllegalArgumentException when it holds no message
     */
    public static List<SourceRecord> read(Path file) {
        String topic = topicOf(file);
        List<SourceRecord> records = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            long lineNumber = 0;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lineNumber++;
                if (!line.isBlank()) {
                    records.add(new SourceRecord(topic, PARTITION, lineNumber, null, line));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read --input " + file + ": " + e.getMessage(), e);
        }
        if (records.isEmpty()) {
            throw new IllegalArgumentException("--input " + file + " holds no message (one JSON message per line)");
        }
        return records;
    }

    /**
     * @param env the job's environment
     * @param file the JSON-lines file
     * @return its records as a bounded stream of parallelism 1 (one source partition)
     */
    public static DataStream<SourceRecord> stream(StreamExecutionEnvironment env, Path file) {
        return env.fromData(read(file), TypeInformation.of(SourceRecord.class)).setParallelism(1)
                .name("file " + file.getFileName()).uid("lockstep-file-source");
    }

    /** @return {@code file:<name>}, the topic the records carry */
    public static String topicOf(Path file) {
        return "file:" + file.getFileName();
    }
}
