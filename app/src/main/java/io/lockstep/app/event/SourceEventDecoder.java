package io.lockstep.app.event;

import java.io.Serializable;

/**
 * Turns one raw source message into a {@link SourceEvent}. Implementations are stateless and
 * serializable (they are shipped inside Flink functions).
 */
public interface SourceEventDecoder extends Serializable {

    /**
     * @param record the raw message
     * @return the decoded event, or {@code null} when the message carries no change to load (a
     *     tombstone, a DDL or bootstrap marker)
     * @throws BadSourceEventException when the message is malformed or misses a required field; the
     *     message names the record's position
     */
    SourceEvent decode(SourceRecord record);
}
