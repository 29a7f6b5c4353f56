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

    @Test
    void aWrongPasswordIsDeniedWithTheStarRocksText() throws Exception {
        Run denied = mariadb(null, "nope", "SELECT 1");
        assertThat(denied.exitCode()).isNotZero();
        assertThat(denied.output()).contains("ERROR 1045 (28000)")
                .contains("Access denied for user 'loader' (using password: YES)");
    }
}
