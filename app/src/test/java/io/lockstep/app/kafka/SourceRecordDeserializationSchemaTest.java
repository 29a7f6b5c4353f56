package io.lockstep.app.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.event.BadInputMode;
import io.lockstep.app.event.BadSourceEventException;
import io.lockstep.app.event.SourceRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Kafka records to SourceRecords: position, UTF-8 text, tombstones, bad bytes; the source factory's checks. */
class SourceRecordDeserializationSchemaTest {

    private static final byte[] NOT_UTF8 = {(byte) 0xC3, (byte) 0x28};

    @Test
    void keepsPositionKeyAndValueAsText() {
        List<SourceRecord> out = deserialize(BadInputMode.FAIL,
                record(3, 42, "{\"order_id\":7}", "{\"op\":\"c\",\"name\":\"Zoë\"}"));
        assertThat(out).containsExactly(new SourceRecord("shop.cdc", 3, 42, "{\"order_id\":7}",
                "{\"op\":\"c\",\"name\":\"Zoë\"}"));
    }

    @Test
    void aTombstoneKeepsItsNullValueAndANullKeyStaysNull() {
        List<SourceRecord> out = deserialize(BadInputMode.FAIL, record(0, 5, "{\"order_id\":7}", null),
                record(0, 6, null, "{}"));
        assertThat(out).containsExactly(new SourceRecord("shop.cdc", 0, 5, "{\"order_id\":7}", null),
                new SourceRecord("shop.cdc", 0, 6, null, "{}"));
    }

    @Test
    void bytesThatAreNotUtf8FailNamingThePosition() {
        ConsumerRecord<byte[], byte[]> bad = new ConsumerRecord<>("shop.cdc", 1, 99, "k".getBytes(StandardCharsets.UTF_8),
                NOT_UTF8);
        assertThatThrownBy(() -> deserialize(BadInputMode.FAIL, bad))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessage("topic 'shop.cdc' partition 1 offset 99: the message value is not valid UTF-8 (2 bytes)");
        ConsumerRecord<byte[], byte[]> badKey = new ConsumerRecord<>("shop.cdc", 1, 100, NOT_UTF8, null);
        assertThatThrownBy(() -> deserialize(BadInputMode.FAIL, badKey))
                .hasMessageContaining("offset 100: the message key is not valid UTF-8");
    }

    @Test
    void bytesThatAreNotUtf8AreDroppedWhenSkipping() {
        List<SourceRecord> out = deserialize(BadInputMode.SKIP,
                new ConsumerRecord<>("shop.cdc", 1, 99, null, NOT_UTF8), record(1, 100, null, "{}"));
        assertThat(out).containsExactly(new SourceRecord("shop.cdc", 1, 100, null, "{}"));
    }

    @Test
    void theSourceFactoryChecksItsArgumentsAndBoundedness() {
        KafkaSource<SourceRecord> bounded = CdcKafkaSource.create("localhost:9092", "shop.cdc", "g", true,
                BadInputMode.FAIL);
        KafkaSource<SourceRecord> unbounded = CdcKafkaSource.create("localhost:9092", "shop.cdc", "g", false,
                BadInputMode.FAIL);
        assertThat(bounded.getBoundedness()).isEqualTo(Boundedness.BOUNDED);
        assertThat(unbounded.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        assertThatThrownBy(() -> CdcKafkaSource.create(" ", "shop.cdc", "g", true, BadInputMode.FAIL))
                .hasMessageContaining("bootstrap servers");
        assertThatThrownBy(() -> CdcKafkaSource.create("localhost:9092", "", "g", true, BadInputMode.FAIL))
                .hasMessageContaining("topic");
        assertThatThrownBy(() -> CdcKafkaSource.create("localhost:9092", "t", null, true, BadInputMode.FAIL))
                .hasMessageContaining("group id");
    }

    private static ConsumerRecord<byte[], byte[]> record(int partition, long offset, String key, String value) {
        return new ConsumerRecord<>("shop.cdc", partition, offset,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    @SafeVarargs
    private static List<SourceRecord> deserialize(BadInputMode mode, ConsumerRecord<byte[], byte[]>... records) {
        SourceRecordDeserializationSchema schema = new SourceRecordDeserializationSchema(mode);
        List<SourceRecord> out = new ArrayList<>();
        Collector<SourceRecord> collector = new Collector<>() {
            @Override
            public void collect(SourceRecord record) {
                out.add(record);
            }

            @Override
            public void close() {
            }
        };
        for (ConsumerRecord<byte[], byte[]> record : records) {
            schema.deserialize(record, collector);
        }
        return out;
    }
}
