package io.lockstep.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.fault.FaultOp;
import io.lockstep.emulator.txn.TransactionStatus;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** An extension in an instance field gives each test a fresh emulator; faults are cleared after each test. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StarRocksEmulatorExtensionTest {
    @RegisterExtension
    final StarRocksEmulatorExtension sr = new StarRocksEmulatorExtension(
            StarRocksEmulator.builder().ddl(TestSchema.DDL));

    @Test
    @Order(1)
    void firstTestCommitsALabel() throws Exception {
        try (SrHttp http = new SrHttp(sr.emulator().feUrl())) {
            http.txn("begin", TestSchema.orders("ext-1"));
            http.txn("load", TestSchema.ordersJson("ext-1"), TestSchema.orderRows(1, 1));
            assertThat(http.txn("commit", TestSchema.orders("ext-1")).srStatus()).isEqualTo("OK");
        }
        sr.emulator().faults().failNext(FaultOp.BEGIN, 5, "INTERNAL_ERROR", "left behind");
    }

    @Test
    @Order(4)
    void aPortInUseFailsTheStartNamingThePorts() throws Exception {
        int taken = java.net.URI.create(sr.emulator().feUrl()).getPort();
        try (StarRocksEmulator second = StarRocksEmulator.builder().fePort(taken).build()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(second::start)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("ports " + taken + "/0");
        }
    }

    @Test
    @Order(3)
    void invalidDdlFailsTheBuildNamingTheProblem() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> StarRocksEmulator.builder().ddl("CREATE TABLE nowhere.t (id INT) DUPLICATE KEY (id)").build())
                .isInstanceOf(io.lockstep.emulator.catalog.DdlException.class)
                .hasMessageContaining("nowhere");
    }

    @Test
    @Order(2)
    void secondTestStartsClean() throws Exception {
        assertThat(sr.emulator().labelState("shop", "ext-1")).isEqualTo(TransactionStatus.UNKNOWN);
        assertThat(sr.emulator().rowCount("shop", "orders")).isZero();
        try (SrHttp http = new SrHttp(sr.emulator().feUrl())) {
            assertThat(http.txn("begin", TestSchema.orders("ext-2")).srStatus()).isEqualTo("OK");
        }
    }
}
