package io.lockstep.emulator.doris;

import io.lockstep.emulator.be.Backend;
import io.lockstep.emulator.fault.Faults;
import io.lockstep.emulator.server.FaultAdminAction;
import io.lockstep.emulator.server.QueryAction;
import io.lockstep.emulator.server.RequestHandler;
import io.lockstep.emulator.storage.TableStore;
import java.util.function.Supplier;

/**
 * The FE and BE request handlers of a Doris-mode server, wired around one {@link Backend} (the shared catalog,
 * transaction manager, publisher, parser, error logs, faults and users). Immutable; the handlers are thread-safe.
 */
public final class DorisListeners {
    private final RequestHandler fe;
    private final RequestHandler be;

    /**
     * @param backend               the shared server parts
     * @param config                Doris settings
     * @param store                 committed data, for {@code /api/query}
     * @param faults                fault rules, for {@code /api/_fault/{action}}
     * @param beBaseUrl             {@code http://host:port} of the BE listener (known once it is bound)
     * @param credentialsInLocation whether the FE's 307 {@code Location} carries the caller's credentials as
     *                              URL userinfo, as Doris does
     * @param tick                  evaluates timers; run before every request
     */
    public DorisListeners(Backend backend, DorisConfig config, TableStore store, Faults faults,
                          Supplier<String> beBaseUrl, boolean credentialsInLocation, Runnable tick) {
        DorisFrontend frontend = new DorisFrontend(backend, beBaseUrl, credentialsInLocation);
        DorisStreamLoad streamLoad = new DorisStreamLoad(backend, config);
        DorisTwoPhaseCommit twoPc = new DorisTwoPhaseCommit(backend);
        QueryAction query = new QueryAction(store);
        FaultAdminAction faultAdmin = new FaultAdminAction(faults);
        this.fe = new DorisDispatcher(DorisDispatcher.Role.FE, backend, frontend, streamLoad, twoPc, query, faultAdmin,
                tick);
        this.be = new DorisDispatcher(DorisDispatcher.Role.BE, backend, frontend, streamLoad, twoPc, query, faultAdmin,
                tick);
    }

    /** The FE port's handler. */
    public RequestHandler fe() {
        return fe;
    }

    /** The BE port's handler. */
    public RequestHandler be() {
        return be;
    }
}
