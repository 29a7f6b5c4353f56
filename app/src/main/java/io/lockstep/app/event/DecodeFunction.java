package io.lockstep.app.event;

import java.util.Objects;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flink step that decodes raw messages into {@link SourceEvent}s. A message the decoder rejects fails
 * the job ({@link BadInputMode#FAIL}) with the decoder's error, which names topic, partition and offset: it
 * becomes an {@link SourceEventKind#UNDECODABLE} event, so the complete transactions before it still load
 * before the job fails;
 * or ({@link BadInputMode#SKIP}) is dropped with a WARN naming the position and the reason, never the
 * row content. Messages that decode to nothing (tombstones, DDL) are dropped silently. With a dead letter
 * configured, every event also keeps its message's key and value as read ({@link SourceEvent#getRawValue()}), so a
 * dead-lettered transaction can be written as it arrived.
 */
public class DecodeFunction extends ProcessFunction<SourceRecord, SourceEvent> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DecodeFunction.class);

    private final SourceEventDecoder decoder;
    private final BadInputMode badInputMode;
    private final boolean keepRaw;

    /**
     * @param decoder the format's decoder
     * @param badInputMode fail or skip on a message that cannot be decoded
     */
    public DecodeFunction(SourceEventDecoder decoder, BadInputMode badInputMode) {
        this(decoder, badInputMode, false);
    }

    /**
     * @param decoder the format's decoder
     * @param badInputMode fail or skip on a message that cannot be decoded
     * @param keepRaw whether each event keeps its message's key and value (for a dead letter, or for the schema of a
     *     table {@code --create-tables} creates while the job runs)
     */
    public DecodeFunction(SourceEventDecoder decoder, BadInputMode badInputMode, boolean keepRaw) {
        this.decoder = Objects.requireNonNull(decoder, "decoder");
        this.badInputMode = Objects.requireNonNull(badInputMode, "badInputMode");
        this.keepRaw = keepRaw;
    }

    @Override
    public void processElement(SourceRecord record, Context ctx, Collector<SourceEvent> out) {
        SourceEvent event;
        try {
            event = decoder.decode(record);
        } catch (BadSourceEventException e) {
            if (badInputMode == BadInputMode.FAIL) {
                // in order with the partition's events: the assembler stops the job after what came before
                SourceEvent undecodable = SourceEvent.at(SourceEventKind.UNDECODABLE, record);
                undecodable.setRow(e.getMessage());
                keepRaw(undecodable, record);
                out.collect(undecodable);
                return;
            }
            LOG.warn("Skipping bad input: {}", e.getMessage());
            return;
        }
        if (event != null) {
            keepRaw(event, record);
            out.collect(event);
        }
    }

    private void keepRaw(SourceEvent event, SourceRecord record) {
        if (keepRaw) {
            event.setRawKey(record.getKey());
            event.setRawValue(record.getValue());
        }
    }
}
