package io.lockstep.core.client;

import java.io.IOException;

/**
 * A node accepted the connection and the request head of a load, then neither asked for the body
 * ({@code 100 Continue}) nor answered within the wait-for-continue timeout: a StarRocks/Doris FE answers a load at
 * once with its 307 redirect and a BE with {@code 100 Continue}, so such a node is taken as hung. The body was not
 * sent, so no data reached it and the load may go to another node ({@link StarRocksHttp} treats it like a refused
 * connection).
 */
final class SilentNodeException extends IOException {
    private static final long serialVersionUID = 1L;

    SilentNodeException(String message) {
        super(message);
    }
}
