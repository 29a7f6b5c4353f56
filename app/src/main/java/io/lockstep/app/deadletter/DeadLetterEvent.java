package io.lockstep.app.deadletter;

import io.lockstep.app.event.SourceEvent;

/**
 * One raw source event as read (its key and value text) with its coordinates: what a dead letter keeps of each event
 * of a dead-lettered source transaction. A Flink POJO (the assembler keeps the open transaction's events in keyed
 * state while a dead letter is configured); not thread safe.
 */
public class DeadLetterEvent {

    private String topic;
    private int partition;
    private long offset;
    private String key;
    private String value;

    /** Flink POJO constructor. */
    public DeadLetterEvent() {
    }

    /**
     * @param event a decoded event that kept its raw text ({@link SourceEvent#getRawValue()})
     * @return its coordinates, key and value
     */
    public static DeadLetterEvent of(SourceEvent event) {
        DeadLetterEvent raw = new DeadLetterEvent();
        raw.topic = event.getTopic();
        raw.partition = event.getPartition();
        raw.offset = event.getOffset();
        raw.key = event.getRawKey();
        raw.value = event.getRawValue();
        return raw;
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

    /** Coordinates only: the content may hold personal data and stays out of logs. */
    @Override
    public String toString() {
        return "DeadLetterEvent{topic '" + topic + "' partition " + partition + " offset " + offset + "}";
    }
}
