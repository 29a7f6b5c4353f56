package io.lockstep.app.assemble;

import io.lockstep.app.event.CdcFormat;
import io.lockstep.app.route.TableRouter;

/** Picks the assembler of an input format. */
public final class TransactionAssemblers {

    private TransactionAssemblers() {
    }

    /**
     * @param format the input format
     * @param router maps source tables to target tables
     * @param options bounds and error handling
     * @return a new assembler for the format
     */
    public static TransactionAssembler forFormat(CdcFormat format, TableRouter router, AssemblerOptions options) {
        return format == CdcFormat.MAXWELL
                ? new MaxwellTransactionAssembler(router, options)
                : new DebeziumTransactionAssembler(router, options);
    }
}
