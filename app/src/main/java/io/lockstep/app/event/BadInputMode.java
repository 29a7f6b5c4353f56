package io.lockstep.app.event;

/**
 * What to do with input that cannot be used: malformed JSON, a missing field, a data event outside any
 * transaction when the format requires one, an END without BEGIN.
 */
public enum BadInputMode {
    /** Fail the job with an error naming topic, partition and offset (the default). */
    FAIL,
    /** Drop the message and log a WARN naming its position and the reason (never the row content). */
    SKIP
}
