package io.lockstep.app.deadletter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.app.event.SourceRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The dead-letter record (docs/dead-letter.md): one JSON object per raw event, so a large transaction never makes one
 * oversized record. Fields: {@code reason}, {@code transaction} (id or {@code null}), {@code event} and
 * {@code events} (1-based index in the dead-lettered transaction and their count), the coordinates
 * ({@code topic}, {@code partition}, {@code offset}; for {@code --input} files {@code file} and {@code line}),
 * {@code key} and {@code value} (the raw text as read, {@code null} when absent) and {@code deadLetteredAt}
 * (ISO-8601 UTC). Written with Jackson; stateless and thread-safe.
 */
public final class DeadLetterFormat {

    /** Topic prefix of the records of a JSON-lines file ({@code io.lockstep.app.file.JsonLinesInput}). */
    static final String FILE_TOPIC_PREFIX = "file:";

    private static final ObjectMapper JSON = new ObjectMapper();

    private DeadLetterFormat() {
    }

    /**
     * @param letter the dead letter
     * @param at when it was written
     * @return one JSON document per event, in source order
     */
    public static List<String> records(DeadLetter letter, Instant at) {
        List<String> records = new ArrayList<>(letter.events().size());
        for (int i = 0; i < letter.events().size(); i++) {
            SourceRecord event = letter.events().get(i);
            ObjectNode record = JSON.createObjectNode();
            record.put("reason", letter.reason());
            record.put("transaction", letter.transactionId());
            record.put("event", i + 1);
            record.put("events", letter.events().size());
            String topic = event.getTopic();
            if (topic != null && topic.startsWith(FILE_TOPIC_PREFIX)) {
                record.put("file", topic.substring(FILE_TOPIC_PREFIX.length()));
                record.put("line", event.getOffset());
            } else {
                record.put("topic", topic);
                record.put("partition", event.getPartition());
                record.put("offset", event.getOffset());
            }
            record.put("key", event.getKey());
            record.put("value", event.getValue());
            record.put("deadLetteredAt", at.toString());
            records.add(record.toString());
        }
        return records;
    }
}
