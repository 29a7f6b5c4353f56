package io.lockstep.emulator.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.emulator.StarRocksEmulator;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The prepared-statement commands byte by byte: COM_STMT_CLOSE and COM_STMT_SEND_LONG_DATA get no reply (MySQL's
 * command phase, https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_close.html; StarRocks FE
 * {@code fe/fe-core/src/main/java/com/starrocks/qe/ConnectProcessor.java} sends nothing for COM_STMT_CLOSE), so the
 * next command's reply is the next packet; long data is used by the next execute; COM_STMT_RESET answers OK.
 */
class QueryPortCommandsTest {
    private static StarRocksEmulator sr;

    @BeforeAll
    static void start() throws Exception {
        sr = StarRocksEmulator.builder().user("loader", "pw-1").ddl("CREATE DATABASE shop").build().start();
    }

    @AfterAll
    static void stop() {
        sr.close();
    }

    private static byte[] prepare(String sql) {
        return new PacketWriter().int1(0x16).bytes(sql.getBytes(StandardCharsets.UTF_8)).payload();
    }

    @Test
    void closeAndSendLongDataAreNeverAnsweredSoTheNextReplyIsTheNextCommands() throws Exception {
        try (RawQueryPortClient client = new RawQueryPortClient(sr.queryPort(), "loader", "pw-1", "shop")) {
            client.send(prepare("SELECT ?"));
            PacketReader ok = new PacketReader(client.read());
            assertThat(ok.int1("status")).isZero();
            long id = ok.int4("statement id");
            assertThat(ok.int2("columns")).isZero();
            assertThat(ok.int2("parameters")).isEqualTo(1);
            client.read(); // the parameter's definition
            assertThat(client.read()[0] & 0xFF).as("EOF after the parameters").isEqualTo(0xFE);

            // long data for parameter 0, in two pieces, then an execute that sends no value for it
            client.send(new PacketWriter().int1(0x18).int4(id).int2(0).bytes("long ".getBytes()).payload());
            client.send(new PacketWriter().int1(0x18).int4(id).int2(0).bytes("data".getBytes()).payload());
            client.send(new PacketWriter().int1(0x17).int4(id).int1(0).int4(1).int1(0).int1(1)
                    .int2(ResultColumnType.TYPE_VAR_STRING).payload());
            assertThat(new PacketReader(client.read()).lenenc("column count")).as("the execute's reply comes first")
                    .isEqualTo(1);
            client.read();
            client.read();
            PacketReader row = new PacketReader(client.read());
            assertThat(row.int1("binary row header")).isZero();
            row.int1("NULL bitmap");
            assertThat(new String(row.bytes((int) row.lenenc("length"), "value"), StandardCharsets.UTF_8))
                    .isEqualTo("long data");
            assertThat(client.read()[0] & 0xFF).isEqualTo(0xFE);

            client.send(new PacketWriter().int1(0x1A).int4(id).payload());
            assertThat(client.read()[0] & 0xFF).as("COM_STMT_RESET answers OK").isZero();

            client.send(new PacketWriter().int1(0x19).int4(id).payload()); // COM_STMT_CLOSE: no reply
            client.send(new PacketWriter().int1(0x19).int4(999).payload()); // unknown id: no reply either
            client.send(new byte[] {0x0E}); // COM_PING
            byte[] pong = client.read();
            assertThat(pong[0] & 0xFF).as("the first packet after the closes is the ping's OK").isZero();

            client.send(new PacketWriter().int1(0x17).int4(id).int1(0).int4(1).payload());
            RawQueryPortClient.Err closed = RawQueryPortClient.err(client.read());
            assertThat(closed.code()).as("the closed statement is gone").isEqualTo(1243);
        }
    }
}
