package io.lockstep.emulator.server;

import io.lockstep.emulator.http.Reply;
import io.lockstep.emulator.http.ServerRequest;

/**
 * Answers the requests of one listener (an FE or a BE port) of one server dialect. Implementations are
 * thread-safe and never throw.
 */
public interface RequestHandler {

    /**
     * Handles one request.
     *
     * @return the reply; HTTP status 0 means "drop the connection mid-body" (fault injection)
     */
    Reply dispatch(ServerRequest req);
}
