package io.lockstep.app.event;

/** Formats a source position the same way in every error message: {@code topic 'T' partition P offset O}. */
final class SourcePositions {

    private SourcePositions() {
    }

    static String describe(String topic, int partition, long offset) {
        return "topic '" + topic + "' partition " + partition + " offset " + offset;
    }
}
