package io.lockstep.app.event;

import java.util.Objects;

/**
 * One raw message as read from the source (for example one Kafka record): where it came from and its
 * key and value as text. A Flink POJO (public no-arg constructor, getters and setters), so it travels
 * between operators without Kryo. Not thread safe.
 *
 * <p>{@code key} and {@code value} are {@code null} when the message has none (a Kafka tombstone has a
 * {@code null} value).
 */
public class SourceRecord {

    private String topic;
    private int partition;
    private long offset;
    private String key;
    private String value;

    /** Creates an empty record (Flink POJO constructor). */
    public SourceRecord() {
    }

    /**
     * @param topic source topic (or stream) name
     * @param partition source partition (&gt;= 0)
     * @param offset position of the message in its partition
     * @param key message key as text, or {@code null}
     * @param value message value as text, or {@code null}
     */
    public SourceRecord(String topic, int partition, long offset, String key, String value) {
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.key = key;
        this.value = value;
    }

    public String getTopic() {
        return topic;
    }

    public void setTopic(String topic) {
        this.topic = topic;
    }

    public int getPartition() {
        return partition;
    }

    public void setPartition(int partition) {
        this.partition = partition;
    }

    public long getOffset() {
        return offset;
    }

    public void setOffset(long offset) {
        this.offset = offset;
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }

    public String getValue() {
        return value;
    }

    public void setValue(String value) {
        this.value = value;
    }

    /** @return {@code topic 'T' partition P offset O}, for error messages */
    public String describePosition() {
        return SourcePositions.describe(topic, partition, offset);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SourceRecord)) {
            return false;
        }
        SourceRecord that = (SourceRecord) o;
        return partition == that.partition && offset == that.offset && Objects.equals(topic, that.topic)
                && Objects.equals(key, that.key) && Objects.equals(value, that.value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, partition, offset, key, value);
    }

    /** Describes the record's position only; its content may hold personal data and stays out of logs. */
    @Override
    public String toString() {
        return "SourceRecord{" + describePosition() + "}";
    }
}
