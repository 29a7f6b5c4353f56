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
 * row content. Messages that decode to nothing (tombstones, DDL) are dropped silently.
 */
public class DecodeFunction extends ProcessFunction<SourceRecord, SourceEvent> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DecodeFunction.class);

    private final SourceEventDecoder decoder;
    private final BadInputMode badInputMode;

    /**
     * @param decoder the format's decoder
     * @param badInputMode fail or skip on a message that cannot be decoded
     */
    public DecodeFunction(SourceEventDecoder decoder, BadInputMode badInputMode) {
        this.decoder = Objects.requireNonNull(decoder, "decoder");
        this.badInputMode = Objects.requireNonNull(badInputMode, "badInputMode");
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
                out.collect(undecodable);
                return;
            }
            LOG.warn("Skipping bad input: {}", e.getMessage());
            return;
        }
        if (event != null) {
            out.collect(event);
        }
    }
}
