package io.lockstep.app.deadletter;

import io.lockstep.app.event.SourceRecord;
import java.util.List;
import java.util.Objects;

/**
 * What goes to the dead letter at once: every event of one source transaction (or one event outside any transaction)
 * and why none of it was loaded. Immutable.
 *
 * @param reason one line: the position of the event that made the transaction unusable and what is wrong with it
 *     (never row content)
 * @param transactionId the source transaction's id, or {@code null} for an event outside any transaction or one
 *     that could not be decoded
 * @param events the raw events in source order, at least one
 */
public record DeadLetter(String reason, String transactionId, List<SourceRecord> events) {

    /** @throws IllegalArgumentException without events */
    public DeadLetter {
        Objects.requireNonNull(reason, "reason");
        events = List.copyOf(events);
        if (events.isEmpty()) {
            throw new IllegalArgumentException("a dead letter holds at least one event");
        }
    }

    /** @return e.g. {@code transaction 't2' (5 events, topic 'cdc' partition 0 offsets 10..14)}, without content */
    public String describe() {
        SourceRecord first = events.get(0);
        SourceRecord last = events.get(events.size() - 1);
        return (transactionId == null ? "event" : "transaction '" + transactionId + "'") + " (" + events.size()
                + (events.size() == 1 ? " event" : " events") + ", topic '" + first.getTopic() + "' partition "
                + first.getPartition() + (events.size() == 1 ? " offset " + first.getOffset()
                : " offsets " + first.getOffset() + ".." + last.getOffset()) + ")";
    }
}
