package io.lockstep.core.engine;

import io.lockstep.core.buffer.Chunk;
import io.lockstep.core.client.LoadReply;
import io.lockstep.core.client.TransactionRef;

import java.util.List;

/**
 * What an I/O thread reports to the manager thread after one load: {@code reply} on success, else {@code failure}.
 * Immutable; handed over through a concurrent queue.
 *
 * @param key       the manager's in-flight key (the table, or {@code database.table})
 * @param table     the table loaded
 * @param txn       the transaction loaded into
 * @param chunks    the chunks in the body, owned by the manager thread
 * @param bodyBytes body length, bytes
 */
record LoadCompletion(String key, String table, TransactionRef txn, List<Chunk> chunks, int bodyBytes,
                      LoadReply reply, Throwable failure) {
}
