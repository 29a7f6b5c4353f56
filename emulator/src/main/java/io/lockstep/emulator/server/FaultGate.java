package io.lockstep.emulator.server;

import io.lockstep.emulator.fault.FaultAction;
import io.lockstep.emulator.fault.FaultInjector;
import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.http.Reply;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Applies the forced action of a fault rule to one executing request: proceed, answer a forced status (in the
 * op's reply vocabulary, given by the caller), answer an HTTP error, drop the connection mid-body, or execute and
 * drop the reply. Shared by every server dialect. Stateless.
 */
public final class FaultGate {
    private FaultGate() {
    }

    /**
     * @param faults     the rules
     * @param op         the op of the request
     * @param action     executes the request
     * @param failReply  renders a forced (status, message) in the op's vocabulary
     * @return the reply; HTTP status 0 = close the connection instead of answering
     */
    public static Reply apply(FaultInjector faults, FaultOp op, Supplier<Reply> action,
                              BiFunction<String, String, Reply> failReply) {
        FaultAction a = faults.next(op);
        switch (a.kind()) {
            case FAIL_STATUS:
                return failReply.apply(a.status(), a.message());
            case FAIL_HTTP:
                return new Reply(a.httpStatus(), Map.of(), "", "text/plain", false);
            case DROP_CONNECTION:
                return new Reply(0, Map.of(), "", "text/plain", true);
            case DROP_REPLY:
                action.get(); // applied, but the reply is lost
                return new Reply(0, Map.of(), "", "text/plain", true);
            default:
                return action.get();
        }
    }
}
