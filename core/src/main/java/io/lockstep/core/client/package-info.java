/**
 * Transaction clients: the {@link io.lockstep.core.client.TransactionClient} contract the load engine drives, and
 * its StarRocks dialect over HTTP ({@link io.lockstep.core.client.StarRocksTransactionClient}, plus classic stream
 * load in {@link io.lockstep.core.client.StarRocksStreamLoader}), and its Apache Doris dialect
 * ({@link io.lockstep.core.client.DorisTransactionClient}: stream load 2PC by label;
 * {@link io.lockstep.core.client.DorisStreamLoader}: plain stream load), docs/doris.md.
 *
 * <p>Decisions worth knowing before changing anything here (protocol facts: docs/protocol.md):
 * <ul>
 *   <li>Success is an allow-list per operation. Anything unclear about prepare, commit or rollback (a non-OK
 *       reply, an I/O error, a response timeout, {@code TXN_NOT_EXISTS}, a publish timeout) is settled by a
 *       label-state query, never by matching a message.</li>
 *   <li>Retries are bounded, backed off on an injectable {@link io.lockstep.core.time.Ticker}, classified by
 *       {@link io.lockstep.core.client.FailureClass} and counted as {@code retries.<class>}; data errors are not
 *       retried and carry an excerpt of the server's error log.</li>
 *   <li>A transaction load whose outcome is unknown (an I/O error after the body may have arrived, or a gateway's
 *       502/504) is never re-sent on the same label: a retry would either duplicate rows in the transaction or
 *       fail on a transaction the BE already aborted. The caller gets
 *       {@link io.lockstep.core.client.LoadOutcomeUnknownException} and rolls back. Classic stream load, whose
 *       label deduplicates, does re-send.</li>
 *   <li>Redirects are followed by this package, for every method, re-sending credentials and body; a load's
 *       body goes only to the node that asked for it with {@code 100 Continue}.</li>
 *   <li>Passwords and {@code Authorization} headers are never logged or put into messages.</li>
 * </ul>
 */
package io.lockstep.core.client;
