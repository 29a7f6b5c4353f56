package io.lockstep.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lockstep.e2e.source.DebeziumConnectors;
import io.lockstep.e2e.source.MariaDbServer;
import io.lockstep.e2e.workload.OltpSchema;
import io.lockstep.e2e.workload.OltpWorkload;
import io.lockstep.e2e.workload.TxnLedger;
import io.lockstep.source.debezium.DebeziumKafkaPublisher;
import java.sql.Connection;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * MariaDB (Debian's {@code mariadb-server}: a private {@code mariadbd} with the binary log in ROW format; GTIDs are
 * always on in MariaDB) with Debezium 3.6.1's MySQL connector: a documented gap. The connector refuses MariaDB while
 * validating its configuration: it asks for {@code SHOW BINARY LOG STATUS} (MySQL 8.4's statement), MariaDB 10.11
 * does not know it, and the fallback to {@code SHOW MASTER STATUS} is only taken for versions below 8.4, which MariaDB's
 * version number 10.11 is not. Debezium's dedicated MariaDB connector is not served from the package registry this
 * project builds from. This test pins the refusal on the real server, with the schema and a first transaction of the
 * workload in place, so that a Debezium upgrade that accepts MariaDB shows up here (then run {@link OltpWorkload}
 * through it as {@link PostgresEndToEndIT} does). docs/sources.md says what to run instead.
 */
class MariaDbEndToEndIT {

    @Test
    void debeziumsMySqlConnectorRefusesMariaDbNamingTheBinaryLogStatement() throws Exception {
        try (MariaDbServer mariadb = MariaDbServer.start()) {
            mariadb.execute(OltpSchema.sourceDdl(OltpSchema.Dialect.MARIADB));
            try (Connection connection = mariadb.connect()) {
                OltpWorkload.warmUp(connection, new TxnLedger());
            }
            // The connector fails before it produces anything: no broker is needed behind the producer.
            try (DebeziumKafkaPublisher debezium = DebeziumKafkaPublisher.start(DebeziumConnectors.mariadb(
                    mariadb.port(), "maria", 5401, MariaDbServer.DATABASE, MariaDbServer.USER,
                    MariaDbServer.PASSWORD, true), "127.0.0.1:9")) {
                await().atMost(Duration.ofMinutes(1)).until(() -> debezium.failure() != null);
                String failure = String.valueOf(debezium.failure());
                System.out.println("MariaDB with Debezium's MySQL connector: " + failure);
                assertThat(failure).contains("Connector configuration is not valid")
                        .containsPattern("MySQL version 10\\.11\\.[0-9]+-MariaDB\\S* should support SHOW BINARY LOG"
                                + " STATUS but it failed");
                assertThat(debezium.published()).isZero();
            }
        }
    }
}
