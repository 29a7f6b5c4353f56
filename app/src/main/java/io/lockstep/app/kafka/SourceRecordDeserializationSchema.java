package io.lockstep.app.kafka;

import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.BadSourceEventException;
import io.lockstep.app.event.SourceRecord;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a Kafka record into a {@link SourceRecord}: topic, partition, offset, and key and value decoded as
 * UTF-8 text (CDC JSON is UTF-8). A {@code null} key or value stays {@code null}, so a tombstone (a
 * {@code null} value that Debezium sends after a delete) reaches the decoder, which ignores it.
 *
 * <p>Bytes that are not valid UTF-8 are never replaced silently (that would change row content): with
 * {@link BadInputMode#FAIL} they fail the job with a {@link BadSourceEventException} naming topic,
 * partition and offset; with {@link BadInputMode#SKIP} the record is dropped with a WARN naming its
 * position. Stateless and serializable; one instance per source reader.
 */
public final class SourceRecordDeserializationSchema implements KafkaRecordDeserializationSchema<SourceRecord> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(SourceRecordDeserializationSchema.class);

    private final BadInputMode badInputMode;

    /** @param badInputMode what to do with a key or value that is not valid UTF-8 */
    public SourceRecordDeserializationSchema(BadInputMode badInputMode) {
        this.badInputMode = Objects.requireNonNull(badInputMode, "badInputMode");
    }

    /**
     * @param record the Kafka record
     * @param out receives one {@link SourceRecord}, or nothing when a bad record is skipped
     * @throws BadSourceEventException naming the position when the key or value is not UTF-8 and the mode
     *     is {@link BadInputMode#FAIL}
     */
    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<SourceRecord> out) {
        SourceRecord result = new SourceRecord(record.topic(), record.partition(), record.offset(), null, null);
        try {
            result.setKey(utf8(record.key(), result, "key"));
            result.setValue(utf8(record.value(), result, "value"));
        } catch (BadSourceEventException e) {
            if (badInputMode == BadInputMode.FAIL) {
                throw e;
            }
            LOG.warn("Skipping bad input: {}", e.getMessage());
            return;
        }
        out.collect(result);
    }

    private static String utf8(byte[] bytes, SourceRecord position, String what) {
        if (bytes == null) {
            return null;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new BadSourceEventException(position.describePosition(), "the message " + what
                    + " is not valid UTF-8 (" + bytes.length + " bytes)");
        }
    }

    /** @return the {@link SourceRecord} POJO type */
    @Override
    public TypeInformation<SourceRecord> getProducedType() {
        return TypeInformation.of(SourceRecord.class);
    }
}
