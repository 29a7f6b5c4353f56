package io.lockstep.core.client;

/**
 * A successful load of one body into a transaction.
 *
 * @param loadBytes bytes the server reports for this request ({@code LoadBytes})
 * @param attempts  how many HTTP attempts it took (1 when no retry was needed)
 */
public record LoadReply(long loadBytes, int attempts) {
}
