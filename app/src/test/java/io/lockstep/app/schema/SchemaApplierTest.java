package io.lockstep.app.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.app.route.TargetTable;
import io.lockstep.emulator.StarRocksEmulator;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link SchemaApplier} against the emulator's MySQL-protocol port. */
class SchemaApplierTest {
    private static final String DDL = "CREATE DATABASE bank;CREATE TABLE bank.accounts (id BIGINT NOT NULL,"
            + " owner VARCHAR(64), legacy INT) PRIMARY KEY (id) DISTRIBUTED BY HASH(id) BUCKETS 1;";

    @Test
    void aChangeIsAppliedOnceAndAReplayFindsItAlreadyThere() throws Exception {
        try (StarRocksEmulator starRocks = StarRocksEmulator.builder().ddl(DDL).build().start()) {
            SchemaApplier applier = new SchemaApplier(starRocks.jdbcUrl(), "root", "", 10_000);
            SchemaChangeBarrier barrier = new SchemaChangeBarrier(new TargetTable("bank", "accounts"),
                    List.of("email VARCHAR(512)", "visits BIGINT"), List.of("legacy"), "test", 0);

            List<String> first = applier.apply(barrier);
            List<String> replay = applier.apply(barrier);

            assertThat(first).containsExactly("ALTER TABLE `bank`.`accounts` ADD COLUMN `email` VARCHAR(512)",
                    "ALTER TABLE `bank`.`accounts` ADD COLUMN `visits` BIGINT",
                    "ALTER TABLE `bank`.`accounts` DROP COLUMN `legacy`");
            assertThat(replay).isEmpty();
            assertThat(new HttpSqlColumnReader(com.starrocks.connector.flink.table.sink.StarRocksSinkOptions.builder()
                    .withProperty("load-url", starRocks.feUrl()).withProperty("database-name", "bank")
                    .withProperty("table-name", "accounts").withProperty("username", "root")
                    .withProperty("password", "").withProperty("sink.properties.format", "json").build())
                    .columns("bank", "accounts").stream().map(TargetColumn::name))
                    .containsExactly("id", "owner", "email", "visits");
        }
    }

    @Test
    void aStatementTheServerRefusesIsNamed() throws Exception {
        try (StarRocksEmulator starRocks = StarRocksEmulator.builder().ddl(DDL).build().start()) {
            SchemaApplier applier = new SchemaApplier(starRocks.jdbcUrl(), "root", "", 10_000);
            SchemaChangeBarrier barrier = new SchemaChangeBarrier(new TargetTable("bank", "accounts"),
                    List.of("note GEOMETRY"), List.of(), "test", 0);

            assertThatThrownBy(() -> applier.apply(barrier)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("ALTER TABLE `bank`.`accounts` ADD COLUMN `note` GEOMETRY failed: ");
        }
    }
}
