package io.lockstep.app.testing;

import io.lockstep.core.progress.ProgressTable;
import io.lockstep.emulator.StarRocksEmulator;
import io.lockstep.emulator.catalog.DdlException;
import io.lockstep.emulator.fault.Faults;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One StarRocks emulator ({@link StarRocksEmulator}) per test: the test starts it with the tables it needs
 * ({@link #startBank()}, {@link #startBankSample()}, {@link #start(String)}, {@link #start(UnaryOperator)}), the extension closes it after the test.
 * Register it as an instance field ({@code @RegisterExtension final StarRocksEmulatorExtension starRocks = ...}); it
 * stands for the running emulator in assertions ({@link #rows}, {@link #rowCount}, {@link #runningTransactions}).
 */
public final class StarRocksEmulatorExtension implements AfterEachCallback {
    /** Database {@code bank} with table {@code accounts (id, owner, balance)}, keyed by {@code id}. */
    public static final String BANK_DDL = "CREATE DATABASE bank;"
            + "CREATE TABLE bank.accounts (id BIGINT NOT NULL, owner VARCHAR(64), balance DECIMAL(12, 2))"
            + " PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1;";
    /** The sample's DDL file ({@code examples/bank.sql}: accounts and transfers), from the module's directory. */
    public static final Path BANK_SAMPLE_DDL = Path.of("..", "examples", "bank.sql");

    /** Written by the test's thread when it starts the emulator, cleared after the test, on JUnit's thread. */
    private StarRocksEmulator emulator;

    @Override
    public void afterEach(ExtensionContext context) {
        if (emulator != null) {
            emulator.close();
            emulator = null;
        }
    }

    /** @return {@code CREATE TABLE} of the exactly-once mode's progress table in {@code database} (default name) */
    public static String progressTableDdl(String database) {
        return new ProgressTable(database, ProgressTable.DEFAULT_NAME).createTableSql();
    }

    /**
     * Starts the emulator with {@link #BANK_DDL}.
     *
     * @throws DdlException never for this DDL
     */
    public StarRocksEmulator startBank() throws DdlException {
        return start(BANK_DDL);
    }

    /**
     * Starts the emulator with the sample's tables ({@link #BANK_SAMPLE_DDL}).
     *
     * @throws IOException if the sample's DDL file cannot be read
     * @throws DdlException if the emulator refuses it
     */
    public StarRocksEmulator startBankSample() throws IOException, DdlException {
        StarRocksEmulator.Builder builder = StarRocksEmulator.builder().ddlFile(BANK_SAMPLE_DDL);
        return start(b -> builder);
    }

    /**
     * Starts the emulator with these DDL statements.
     *
     * @throws DdlException naming the statement the emulator refuses
     */
    public StarRocksEmulator start(String ddl) throws DdlException {
        return start(b -> b.ddl(ddl));
    }

    /**
     * Starts the emulator with the builder's settings, e.g. {@code b -> b.ddl(BANK_DDL).user("root", "secret")}.
     *
     * @throws DdlException naming the statement the emulator refuses
     * @throws IllegalStateException if this test already started one
     */
    public StarRocksEmulator start(UnaryOperator<StarRocksEmulator.Builder> setup) throws DdlException {
        if (emulator != null) {
            throw new IllegalStateException("the emulator of this test is already running");
        }
        emulator = setup.apply(StarRocksEmulator.builder()).build().start();
        return emulator;
    }

    /** @return the running emulator */
    public StarRocksEmulator emulator() {
        if (emulator == null) {
            throw new IllegalStateException("the test has not started the emulator");
        }
        return emulator;
    }

    /** @return the FE's HTTP URL, as {@code --load-url} takes it */
    public String feUrl() {
        return emulator().feUrl();
    }

    /** @return the MySQL-protocol URL, as {@code --jdbc-url} takes it */
    public String jdbcUrl() {
        return emulator().jdbcUrl();
    }

    /** @return the rows {@code sql} selects, each as its values joined by {@code |} ({@code null} for NULL) */
    public List<String> rows(String sql) {
        return emulator().query(sql).rows().stream()
                .map(row -> row.stream().map(String::valueOf).collect(Collectors.joining("|")))
                .toList();
    }

    /** @return the visible rows of {@code database.table} */
    public long rowCount(String database, String table) {
        return emulator().rowCount(database, table);
    }

    /** @return the transactions of {@code database} still running (begun, not committed or rolled back) */
    public int runningTransactions(String database) {
        return emulator().runningTransactions(database);
    }

    /** @return the emulator's fault injection */
    public Faults faults() {
        return emulator().faults();
    }
}
