package io.lockstep.app.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.app.event.SourceRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JSON-lines dead letter: the record format, and letters of several subtasks that never interleave. */
class FileDeadLetterWriterTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-02T00:40:12.345Z"), ZoneOffset.UTC);
    @TempDir
    Path dir;

    private static SourceRecord event(String topic, long offset, String key, String value) {
        return new SourceRecord(topic, 3, offset, key, value);
    }

    @Test
    void eachEventIsOneRecordWithItsCoordinatesRawTextAndTheLettersReason() throws Exception {
        Path file = dir.resolve("letters.jsonl");
        DeadLetter letter = new DeadLetter("topic 'cdc' partition 3 offset 11: malformed JSON", "t2",
                List.of(event("cdc", 10, "k1", "{\"status\":\"BEGIN\"}"), event("cdc", 11, null, "{\"cut")));

        new FileDeadLetterWriter(file, CLOCK).write(letter);

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(2);
        JsonNode first = JSON.readTree(lines.get(0));
        assertThat(first.toString()).isEqualTo("{\"reason\":\"topic 'cdc' partition 3 offset 11: malformed JSON\","
                + "\"transaction\":\"t2\",\"event\":1,\"events\":2,\"topic\":\"cdc\",\"partition\":3,\"offset\":10,"
                + "\"key\":\"k1\",\"value\":\"{\\\"status\\\":\\\"BEGIN\\\"}\","
                + "\"deadLetteredAt\":\"2026-12-02T00:40:12.345Z\"}");
        JsonNode second = JSON.readTree(lines.get(1));
        assertThat(second.get("key").isNull()).isTrue();
        assertThat(second.get("value").asText()).isEqualTo("{\"cut");
        assertThat(second.get("event").asInt()).isEqualTo(2);
        assertThat(letter.describe()).isEqualTo("transaction 't2' (2 events, topic 'cdc' partition 3 offsets 10..11)");
    }

    @Test
    void eventsOfAJsonLinesFileAreNamedByFileAndLine() throws Exception {
        Path file = dir.resolve("letters.jsonl");

        new FileDeadLetterWriter(file, CLOCK).write(new DeadLetter("bad", null,
                List.of(event("file:bank.jsonl", 7, null, "x"))));

        JsonNode record = JSON.readTree(Files.readAllLines(file).get(0));
        assertThat(record.get("file").asText()).isEqualTo("bank.jsonl");
        assertThat(record.get("line").asLong()).isEqualTo(7);
        assertThat(record.has("topic")).isFalse();
        assertThat(record.get("transaction").isNull()).isTrue();
    }

    @Test
    void lettersOfSeveralWritersOnOneFileNeverInterleave() throws Exception {
        Path file = dir.resolve("letters.jsonl");
        int writers = 4;
        int lettersEach = 25;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            String topic = "t" + w;
            done.add(pool.submit(() -> {
                DeadLetterWriter writer = DeadLetterTarget.parse("file:" + file).open();
                start.await();
                for (int l = 0; l < lettersEach; l++) {
                    List<SourceRecord> events = new ArrayList<>();
                    for (int e = 0; e < 5; e++) {
                        events.add(event(topic, l * 5L + e, null, "v".repeat(2_000)));
                    }
                    writer.write(new DeadLetter("r", "x" + l, events));
                }
                writer.close();
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(writers * lettersEach * 5);
        for (int i = 0; i < lines.size(); i += 5) {
            JsonNode first = JSON.readTree(lines.get(i));
            for (int e = 0; e < 5; e++) {
                JsonNode record = JSON.readTree(lines.get(i + e));
                assertThat(record.get("topic").asText()).isEqualTo(first.get("topic").asText());
                assertThat(record.get("transaction").asText()).isEqualTo(first.get("transaction").asText());
                assertThat(record.get("event").asInt()).isEqualTo(e + 1);
            }
        }
    }
}
