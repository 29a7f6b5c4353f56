package io.lockstep.app.event;

/**
 * A source message that cannot be used: malformed JSON, a missing or wrongly typed field, an unknown
 * operation, or an event that breaks the transaction framing (data outside any transaction, END
 * without BEGIN). The message starts with the position ({@code topic 'T' partition P offset O}) and
 * never contains the row content.
 */
public class BadSourceEventException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param position the source position, as from {@link SourceRecord#describePosition()}
     * @param reason what is wrong, without row content
     */
    public BadSourceEventException(String position, String reason) {
        super(position + ": " + reason);
    }
}
