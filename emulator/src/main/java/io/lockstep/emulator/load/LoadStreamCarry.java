package io.lockstep.emulator.load;

import java.util.Arrays;
import javax.annotation.concurrent.NotThreadSafe;

/**
 * The part of a transaction's CSV stream that belongs to the next load: the bytes after the last row delimiter of
 * the loads so far (an unterminated record).
 *
 * <p>Why: in a StarRocks transaction the bodies of all loads of one table are one stream
 * (docs/protocol.md#data-formats-and-filtered-rows; the StarRocks docs "Stream Load transaction interface" "Limits"),
 * so a last record without its row delimiter is continued by the first bytes of the next load, and only the end of the
 * stream (prepare/commit) reads what is left as a record. Use one carry per transaction and table with
 * {@link StreamLoadBodyParser#parse(io.lockstep.emulator.catalog.TableSchema, LoadFormat, byte[], LoadStreamCarry)} and
 * {@link StreamLoadBodyParser#finish}. JSON loads never leave a carry: each JSON body is one whole document (BE
 * {@code transaction_stream_load.cpp}).
 *
 * <p>Not thread-safe: owned by the load channel of one table, which admits one request at a time.
 */
@NotThreadSafe
public final class LoadStreamCarry {
    private static final byte[] NONE = new byte[0];
    private byte[] pending = NONE;

    /** Bytes waiting for the next load (0 when every record so far ended with the row delimiter). */
    public int pendingBytes() {
        return pending.length;
    }

    byte[] takeJoinedWith(byte[] body) {
        if (pending.length == 0) {
            return body;
        }
        byte[] joined = Arrays.copyOf(pending, pending.length + body.length);
        System.arraycopy(body, 0, joined, pending.length, body.length);
        pending = NONE;
        return joined;
    }

    byte[] takeAll() {
        byte[] all = pending;
        pending = NONE;
        return all;
    }

    void keep(byte[] data, int from) {
        pending = from >= data.length ? NONE : Arrays.copyOfRange(data, from, data.length);
    }
}
