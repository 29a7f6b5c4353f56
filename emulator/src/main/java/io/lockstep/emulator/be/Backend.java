package io.lockstep.emulator.be;

import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.fault.FaultInjector;
import io.lockstep.emulator.http.BasicAuth;
import io.lockstep.emulator.load.LoadBodyParser;
import io.lockstep.emulator.txn.TransactionManager;
import io.lockstep.emulator.txn.TransactionPublisher;
import java.time.Clock;
import java.util.function.Supplier;

/**
 * Everything the BE operations share; one instance per emulator, all parts thread-safe.
 *
 * @param catalog       databases and tables
 * @param transactions  the FE transaction manager (the BE's thrift calls to the FE become direct calls)
 * @param publisher     commit + publish
 * @param contexts      live BE load contexts
 * @param errorLogs     error logs served by {@code _load_error_log}
 * @param parser        the data plane's body parser
 * @param faults        fault rules
 * @param auth          users
 * @param config        BE limits
 * @param clock         emulator clock
 * @param errorLogBaseUrl base URL of the listener serving error logs, e.g. {@code http://127.0.0.1:8040}
 */
public record Backend(Catalog catalog, TransactionManager transactions, TransactionPublisher publisher,
                      LoadContextRegistry contexts, ErrorLogStore errorLogs, LoadBodyParser parser,
                      FaultInjector faults, BasicAuth auth, BackendConfig config, Clock clock,
                      Supplier<String> errorLogBaseUrl) {

    /** {@code ErrorURL} for a stored error log. */
    public String errorUrl(String fileName) {
        return errorLogBaseUrl.get() + "/api/_load_error_log?file=" + fileName;
    }
}
