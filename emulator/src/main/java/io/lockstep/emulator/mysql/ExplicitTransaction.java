package io.lockstep.emulator.mysql;

import java.util.Locale;

/**
 * What {@code BEGIN} / {@code START TRANSACTION}, {@code COMMIT} and {@code ROLLBACK} mean on the query port: the
 * emulator commits every INSERT, UPDATE and DELETE at once (each is a transaction of its own, see
 * {@link DmlStatements}), so these statements change nothing, and a {@code ROLLBACK} that would have to undo writes
 * made since {@code BEGIN} (or while {@code autocommit} is 0) is refused instead of silently keeping them. Owned by
 * the connection's thread.
 */
final class ExplicitTransaction {
    private boolean open;
    private int writes;

    /** BEGIN / START TRANSACTION / COMMIT / ROLLBACK. */
    void run(String statement) {
        String verb = statement.strip().split("\\s+")[0].toUpperCase(Locale.ROOT);
        switch (verb) {
            case "BEGIN", "START" -> {
                open = true;
                writes = 0;
            }
            case "COMMIT" -> {
                open = false;
                writes = 0;
            }
            default -> { // ROLLBACK
                int undone = writes;
                open = false;
                writes = 0;
                if (undone > 0) {
                    throw SqlErrors.analysis("ROLLBACK cannot undo the " + undone + " INSERT/UPDATE/DELETE "
                            + "statement(s) run since the transaction began: the emulator commits each one at once");
                }
            }
        }
    }

    /** An INSERT, UPDATE or DELETE was committed; {@code autocommit} is the session's variable. */
    void wrote(boolean autocommit) {
        if (open || !autocommit) {
            writes++;
        }
    }
}
