package io.lockstep.emulator.mysql;

import io.lockstep.emulator.catalog.Catalog;
import io.lockstep.emulator.catalog.DatabaseInfo;
import io.lockstep.emulator.doris.DorisTxnStatus;
import io.lockstep.emulator.txn.TransactionManager;
import io.lockstep.emulator.txn.TransactionSnapshot;
import io.lockstep.emulator.txn.TransactionStatus;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code SHOW PROC '/transactions...'}: the FE's transaction lists, as StarRocks' {@code TransDbProcDir},
 * {@code TransStateProcDir} and {@code TransProcDir} (fe/fe-core/src/main/java/com/starrocks/common/proc/) lay them
 * out. {@code /transactions} lists DbId and DbName; {@code /transactions/<dbId>} the number of running and finished
 * transactions; {@code /transactions/<dbId>/running|finished} one row per transaction with StarRocks' 14 columns, or
 * in Doris mode Doris' 15 ({@code PreCommitTime} added; Doris FE
 * fe/fe-core/src/main/java/org/apache/doris/common/proc/TransProcDir.java; statuses as Doris names them, PRECOMMITTED
 * for a prepared one). The emulator keeps no pre-commit, commit, publish or finish time: those are NULL;
 * ErrorReplicasCount 0, ListenerId -1. Coordinator: {@code BE: 127.0.0.1} for a stream load's transaction, as both
 * products record the BE that began it, {@code FE: 127.0.0.1} for a StarRocks multi-table one. Running means not yet
 * VISIBLE or ABORTED (COMMITTED included, as in StarRocks). Every column is VARCHAR, as StarRocks sends SHOW PROC
 * columns (fe-core {@code qe/ShowResultMetaFactory#visitShowProcStmt}).
 */
final class TransactionProc {
    /** StarRocks' {@code TransProcDir.TITLE_NAMES}. */
    private static final List<String> STARROCKS_COLUMNS = List.of("TransactionId", "Label", "Coordinator",
            "TransactionStatus", "LoadJobSourceType", "PrepareTime", "CommitTime", "PublishTime", "FinishTime",
            "Reason", "ErrorReplicasCount", "ListenerId", "TimeoutMs", "ErrMsg");
    /** Doris' {@code TransProcDir.TITLE_NAMES}: StarRocks' with {@code PreCommitTime} after {@code PrepareTime}. */
    private static final List<String> DORIS_COLUMNS = List.of("TransactionId", "Label", "Coordinator",
            "TransactionStatus", "LoadJobSourceType", "PrepareTime", "PreCommitTime", "CommitTime", "PublishTime",
            "FinishTime", "Reason", "ErrorReplicasCount", "ListenerId", "TimeoutMs", "ErrMsg");

    private TransactionProc() {
    }

    /**
     * The rows of one {@code SHOW PROC '/transactions...'} path.
     *
     * @param doris whether to lay the transaction lists out as Doris does (15 columns, Doris' status names)
     */
    static SqlResult.Rows show(String path, Catalog catalog, TransactionManager transactions, boolean doris) {
        String[] parts = Arrays.stream(path.split("/")).filter(p -> !p.isEmpty()).toArray(String[]::new);
        if (parts.length == 0 || !parts[0].equals("transactions") || parts.length > 3) {
            throw SqlError.syntax("the emulator answers SHOW PROC '/transactions', '/transactions/<dbId>' and"
                    + " '/transactions/<dbId>/running|finished' only, got '" + path + "'");
        }
        if (parts.length == 1) {
            List<List<Object>> rows = new ArrayList<>();
            for (DatabaseInfo db : catalog.databases()) {
                rows.add(List.of(db.id(), db.name()));
            }
            return SqlResult.Rows.varchar(List.of("DbId", "DbName"), rows);
        }
        DatabaseInfo db = database(parts[1], catalog);
        List<TransactionSnapshot> all = transactions.transactions(db.name());
        List<TransactionSnapshot> running = all.stream().filter(t -> !finished(t)).toList();
        List<TransactionSnapshot> done = all.stream().filter(TransactionProc::finished).toList();
        if (parts.length == 2) {
            return SqlResult.Rows.varchar(List.of("State", "Number"),
                    List.of(List.of("running", (long) running.size()), List.of("finished", (long) done.size())));
        }
        List<TransactionSnapshot> listed = switch (parts[2]) {
            case "running" -> running;
            case "finished" -> done;
            default -> throw SqlError.syntax("expected running or finished after /transactions/" + parts[1]
                    + ", got '" + parts[2] + "'");
        };
        List<List<Object>> rows = new ArrayList<>();
        for (TransactionSnapshot t : listed) {
            rows.add(row(t, doris));
        }
        return SqlResult.Rows.varchar(titles(doris), rows);
    }

    /** @return the column names of a transaction row: StarRocks' 14 or, with {@code doris}, Doris' 15 */
    static List<String> titles(boolean doris) {
        return doris ? DORIS_COLUMNS : STARROCKS_COLUMNS;
    }

    /** One transaction as a TransProcDir row (also {@code SHOW TRANSACTION}'s), laid out as {@link #titles}. */
    static List<Object> row(TransactionSnapshot t, boolean doris) {
        List<Object> row = new ArrayList<>(Arrays.asList(t.txnId(), t.label(), coordinator(t),
                doris ? DorisTxnStatus.of(t.status()).name() : t.status().name(),
                t.multiTable() ? "MULTI_STATEMENT_STREAMING" : "BACKEND_STREAMING",
                LocalDateTime.ofInstant(Instant.ofEpochMilli(t.beginTimeMs()), ZoneOffset.UTC),
                null, null, null, t.reason() == null ? "" : t.reason(), 0L, -1L, t.timeoutMs(), ""));
        if (doris) {
            row.add(6, null); // PreCommitTime
        }
        return row;
    }

    /**
     * Who began the transaction, as the FE's {@code TxnCoordinator} prints it ({@code "<source>: <ip>"}): a stream
     * load (single-table transaction) is begun by the BE that runs it; a StarRocks multi-table transaction by the FE.
     * The emulator's one FE and BE are named by the loopback address.
     */
    private static String coordinator(TransactionSnapshot t) {
        return (t.multiTable() ? "FE: " : "BE: ") + "127.0.0.1";
    }

    private static boolean finished(TransactionSnapshot t) {
        return t.status() == TransactionStatus.VISIBLE || t.status() == TransactionStatus.ABORTED;
    }

    private static DatabaseInfo database(String id, Catalog catalog) {
        for (DatabaseInfo db : catalog.databases()) {
            if (String.valueOf(db.id()).equals(id)) {
                return db;
            }
        }
        throw new SqlError(SqlError.BAD_DB, "42000", "Unknown database id '" + id + "'");
    }
}
