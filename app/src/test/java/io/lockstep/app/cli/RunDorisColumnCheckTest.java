package io.lockstep.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code lockstep run --target doris} never loads unchecked (docs/schema-changes.md): Doris' HTTP interface has no
 * SQL, so the columns are read through {@code --jdbc-url}, which the command then requires.
 */
class RunDorisColumnCheckTest {

    @Test
    void dorisWithoutAJdbcUrlIsRefusedInOneLine() {
        CliRun run = CliRun.of("run", "--kafka-bootstrap", "localhost:9092", "--topic", "t", "--format", "debezium",
                "--load-url", "127.0.0.1:8030", "--database", "shop", "--target", "doris");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().strip().lines()).containsExactly("lockstep run: --target doris needs --jdbc-url (the "
                + "Doris FE's MySQL-protocol port, e.g. jdbc:mysql://fe1:9030): rows are checked against the tables' "
                + "columns and types through it");
    }
}
