package io.lockstep.emulator;

import static io.lockstep.emulator.TestSchema.h;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The query port with the Debian {@code mariadb} command line (package {@code mariadb-client}, which the CI script
 * installs): a table created by the CLI, loaded over HTTP in a transaction, read back by the CLI.
 */
class QueryPortMariadbCliTest {
    @RegisterExtension
    static final StarRocksEmulatorExtension SR = new StarRocksEmulatorExtension(
            StarRocksEmulator.builder().user("loader", "pw-1"));

    /** The CLI's exit code and its output (stdout and stderr joined). */
    record Run(int exitCode, String output) {
    }

    static Run mariadb(String database, String password, String sql, String... options)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("mariadb", "--protocol=TCP", "-h", "127.0.0.1",
                "-P", String.valueOf(SR.emulator().queryPort()), "-u", "loader", "--password=" + password,
                "--batch", "--connect-timeout=10"));
        command.addAll(List.of(options));
        if (database != null) {
            command.addAll(List.of("-D", database));
        }
        command.addAll(List.of("-e", sql));
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError("the mariadb command line is not installed (apt-get install mariadb-client;"
                    + " .ci/run does it)", e);
        }
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("mariadb exited").isTrue();
        return new Run(process.exitValue(), output);
    }

    @Test
    void createsATableLoadsItOverHttpAndReadsTheRowsBack() throws Exception {
        Run create = mariadb(null, "pw-1", "CREATE DATABASE cli; USE cli; CREATE TABLE items (id BIGINT NOT NULL,"
                + " name VARCHAR(20), price DECIMAL(8, 2)) PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1;"
                + " SELECT current_version();");
        assertThat(create.exitCode()).as(create.output()).isZero();
        assertThat(create.output()).isEqualTo("current_version()\n4.0.2-lockstep\n");

        try (SrHttp http = new SrHttp(SR.emulator().feUrl()).as("loader", "pw-1")) {
            var txn = h("label", "cli-1", "db", "cli", "table", "items");
            assertThat(http.txn("begin", txn).srStatus()).isEqualTo("OK");
            var load = h("label", "cli-1", "db", "cli", "table", "items", "format", "json", "strip_outer_array",
                    "true");
            assertThat(http.txn("load", load, "[{\"id\":1,\"name\":\"pen\",\"price\":\"1.50\"},"
                    + "{\"id\":2,\"name\":\"ink\",\"price\":\"7.25\"}]").srStatus()).isEqualTo("OK");
            assertThat(http.txn("prepare", txn).srStatus()).isEqualTo("OK");
            assertThat(http.txn("commit", txn).srStatus()).isEqualTo("OK");
        }

        // caching_sha2_password first (MySQL 8's default): the server switches the client to mysql_native_password
        Run read = mariadb("cli", "pw-1", "SELECT id, name, price FROM items ORDER BY id",
                "--default-auth=caching_sha2_password");
        assertThat(read.exitCode()).as(read.output()).isZero();
        assertThat(read.output()).isEqualTo("id\tname\tprice\n1\tpen\t1.50\n2\tink\t7.25\n");

        Run show = mariadb("cli", "pw-1", "SHOW TABLES; DESC items");
        assertThat(show.output()).isEqualTo("Tables_in_cli\nitems\n"
                + "Field\tType\tNull\tKey\tDefault\tExtra\n"
                + "id\tbigint(20)\tNO\ttrue\tNULL\t\n"
                + "name\tvarchar(20)\tYES\tfalse\tNULL\t\n"
                + "price\tdecimal(8,2)\tYES\tfalse\tNULL\t\n");
    }

    /**
     * Every SHOW / DESC / EXPLAIN statement a StarRocks operator types, through the CLI: each answers (exit code 0)
     * with StarRocks' header (column sets: fe-core {@code com/starrocks/qe/ShowResultMetaFactory.java} and the proc
     * nodes it names; pinned column by column in ShowStatementsConformanceTest).
     */
    @Test
    void runsTheShowStatementsOfAStarRocksSession() throws Exception {
        Run create = mariadb(null, "pw-1", "CREATE DATABASE clishow; USE clishow; CREATE TABLE items (id BIGINT"
                + " NOT NULL, name VARCHAR(20)) PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1");
        assertThat(create.exitCode()).as(create.output()).isZero();
        try (SrHttp http = new SrHttp(SR.emulator().feUrl()).as("loader", "pw-1")) {
            assertThat(http.txn("begin", h("label", "cli-show", "db", "clishow", "table", "items")).srStatus())
                    .isEqualTo("OK");
        }
        long txnId = SR.emulator().transaction("clishow", "cli-show").orElseThrow().txnId();
        List<String> statements = List.of("SHOW TABLES LIKE 'it%'", "SHOW FULL TABLES", "SHOW TABLE STATUS",
                "SHOW INDEX FROM items", "SHOW PARTITIONS FROM items", "SHOW VARIABLES WHERE Variable_name LIKE"
                + " 'version%'", "SHOW STATUS", "SHOW PROCESSLIST", "SHOW FRONTENDS", "SHOW BACKENDS",
                "SHOW PROC '/'", "SHOW PROC '/dbs'", "SHOW PROC '/backends'", "SHOW TRANSACTION WHERE id = " + txnId,
                "SHOW LOAD", "SHOW STREAM LOAD", "SHOW DATA", "EXPLAIN SELECT * FROM items", "DESC items ALL",
                "SHOW FULL COLUMNS FROM items",
                "SELECT COLUMN_NAME, COLUMN_KEY, DATA_TYPE FROM information_schema.COLUMNS WHERE TABLE_NAME = 'items'");
        Run show = mariadb("clishow", "pw-1", String.join("; ", statements));
        assertThat(show.exitCode()).as(show.output()).isZero();
        assertThat(show.output()).doesNotContain("ERROR")
                .contains("Tables_in_clishow\nitems\n")
                .contains("Tables_in_clishow\tTable_type\nitems\tBASE TABLE\n")
                .contains("Name\tEngine\tVersion\tRow_format\tRows\t")
                .contains("PartitionId\tPartitionName\tVisibleVersion\t")
                .contains("Variable_name\tValue\nversion\t8.0.33\nversion_comment\tStarRocks version")
                .contains("ServerName\tId\tUser\tHost\tDb\tCommand\t")
                .contains("Name\tIP\tEditLogPort\tHttpPort\tQueryPort\t")
                .contains("BackendId\tIP\tHeartbeatPort\tBePort\t")
                .contains("name\nbackends\ndbs\n")
                .contains("DbId\tDbName\tTableNum\tQuota\tLastConsistencyCheckTime\tReplicaQuota\n")
                .contains("TransactionId\tLabel\tCoordinator\tTransactionStatus\t")
                .contains("Label\tId\tLoadId\tTxnId\tDbName\tTableName\tState\t")
                .contains("cli-show\t" + txnId + "\t")
                .contains("TableName\tSize\tReplicaCount\nitems\t")
                .contains("Explain String\nPLAN FRAGMENT 0\n")
                .contains("IndexName\tIndexKeysType\tField\tType\tNull\tKey\tDefault\tExtra\n"
                        + "items\tPRIMARY_KEYS\tid\tbigint(20)\tNo\ttrue\tNULL\t\n")
                .contains("Field\tType\tCollation\tNull\tKey\tDefault\tExtra\tPrivileges\tComment\n")
                .contains("COLUMN_NAME\tCOLUMN_KEY\tDATA_TYPE\nid\tPRI\tbigint\nname\t\tvarchar\n");
    }

    @Test
    void aWrongPasswordIsDeniedWithTheStarRocksText() throws Exception {
        Run denied = mariadb(null, "nope", "SELECT 1");
        assertThat(denied.exitCode()).isNotZero();
        assertThat(denied.output()).contains("ERROR 1045 (28000)")
                .contains("Access denied for user 'loader' (using password: YES)");
    }
}
