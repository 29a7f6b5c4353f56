package io.lockstep.emulator.fe;

import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.http.Reply;
import java.util.function.Supplier;

/**
 * What the FE does with a request: answer at once (validation errors, idempotent replies; no state change),
 * forward it to the BE (a 307 in redirect mode, an in-process call in direct mode), or execute a state
 * change itself (FE-side commit/rollback, multi-table begin/commit/rollback, get_load_state, _cancel).
 * Faults are consulted only for {@link Forward} (at the BE) and {@link Execute}.
 */
public sealed interface FeDecision {

    /** Answer with this reply. */
    record Answer(Reply reply) implements FeDecision {
    }

    /** Let the BE execute the request (op {@code op}). */
    record Forward(FaultOp op) implements FeDecision {
    }

    /** Execute on the FE. */
    record Execute(FaultOp op, Supplier<Reply> action) implements FeDecision {
    }

    static FeDecision answer(Reply reply) {
        return new Answer(reply);
    }
}
