package io.lockstep.core.client;

import java.io.IOException;

/**
 * A request that never reached the node that would act on it: the connection to every load URL (or to the
 * node a redirect pointed at) was refused, timed out or could not be resolved. Re-sending it can neither
 * duplicate a load nor repeat a commit, so every operation may retry it (retry class {@code CONNECTION}).
 */
final class NotSentException extends IOException {
    private static final long serialVersionUID = 1L;

    NotSentException(String message, Throwable cause) {
        super(message, cause);
    }
}
