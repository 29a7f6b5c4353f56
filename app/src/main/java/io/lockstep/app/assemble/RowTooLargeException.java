package io.lockstep.app.assemble;

import io.lockstep.app.event.BadSourceEventException;

/**
 * A row event whose sink rows alone exceed the size bound of a source transaction
 * ({@link AssemblerOptions#maxSizeBytes()}), detected when a dead letter is configured: no bound mode can load it,
 * so its transaction goes to the dead letter whatever {@code --bad-input} says. The message names the position,
 * the table and both sizes, never the row.
 */
class RowTooLargeException extends BadSourceEventException {

    private static final long serialVersionUID = 1L;

    RowTooLargeException(String position, String reason) {
        super(position, reason);
    }
}
