package io.lockstep.emulator.load;

/** A source value could not be converted to its column's type; the message says why. Carries no stack trace. */
final class ValueConversionException extends Exception {
    ValueConversionException(String message) {
        super(message, null, false, false);
    }
}
