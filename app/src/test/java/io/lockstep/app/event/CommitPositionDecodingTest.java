package io.lockstep.app.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The source commit position fields the decoders read (docs/input-formats.md#source-commit-positions-and-re-sends),
 * from values shaped as Debezium 3.6.1 and Maxwell write them.
 */
class CommitPositionDecodingTest {

    private static final String UUID = "3E11FA47-71CA-11E1-9E33-C80AA9429562";

    private static SourceEvent debezium(String value) {
        return new DebeziumDecoder().decode(new SourceRecord("t", 0, 7, null, value));
    }

    private static SourceEvent maxwell(String value) {
        return new MaxwellDecoder().decode(new SourceRecord("t", 0, 7, null, value));
    }

    private static String mysqlData(String gtid, String id) {
        return "{\"before\":null,\"after\":{\"id\":1},\"source\":{\"version\":\"3.6.1.Final\",\"connector\":\"mysql\","
                + "\"name\":\"db1\",\"ts_ms\":1767225600000,\"snapshot\":\"false\",\"db\":\"shop\",\"table\":\"orders\","
                + "\"server_id\":223344,\"gtid\":" + gtid + ",\"file\":\"mysql-bin.000003\",\"pos\":1200,\"row\":0},"
                + "\"op\":\"c\",\"ts_ms\":1767225600100,\"transaction\":{\"id\":\"" + id + "\",\"total_order\":1,"
                + "\"data_collection_order\":1}}";
    }

    @Test
    void aPostgresEndCarriesTheCommitLsnAndItsDataEventsTheCommitSource() {
        // as in debezium/pg-crash-resend.jsonl, offsets 38 and 1
        SourceEvent end = debezium("{\"status\":\"END\",\"id\":\"738:24242688\",\"event_count\":1,\"data_collections\":"
                + "[{\"data_collection\":\"public.accounts\",\"event_count\":1}],\"ts_ms\":1796305094889}");
        SourceEvent data = debezium("{\"before\":null,\"after\":{\"id\":1},\"source\":{\"version\":\"3.6.1.Final\","
                + "\"connector\":\"postgresql\",\"name\":\"crash\",\"ts_ms\":1796305094889,\"snapshot\":\"false\","
                + "\"db\":\"postgres\",\"sequence\":\"[null,\\\"24236704\\\"]\",\"schema\":\"public\","
                + "\"table\":\"accounts\",\"txId\":738,\"lsn\":24236704,\"xmin\":null},\"op\":\"c\",\"ts_ms\":1,"
                + "\"transaction\":{\"id\":\"738:24236704\",\"total_order\":1,\"data_collection_order\":1}}");

        assertThat(end.getCommitLsn()).isEqualTo(24242688L);
        assertThat(end.getCommitTimeMs()).isEqualTo(1796305094889L);
        assertThat(end.getTransactionKey()).isEqualTo("738");
        assertThat(data.getCommitSource()).isEqualTo("postgresql:crash");
        assertThat(data.getCommitLsn()).as("a data event's LSN is its own, not the commit's").isEqualTo(-1);
    }

    @Test
    void aMysqlGtidIsReadFromSourceAndIdsTaggedOrNotInLowerCase() {
        SourceEvent data = debezium(mysqlData("\"" + UUID + ":Batch_1:23\"", UUID + ":Batch_1:23"));
        SourceEvent end = debezium("{\"status\":\"END\",\"id\":\"" + UUID + ":23\",\"event_count\":0,"
                + "\"data_collections\":[],\"ts_ms\":1767225600000}");

        assertThat(data.getCommitSource()).isEqualTo("mysql:db1");
        assertThat(data.getGtid()).isEqualTo(UUID.toLowerCase() + ":batch_1:23");
        assertThat(end.getGtid()).isEqualTo(UUID.toLowerCase() + ":23");
        assertThat(end.getCommitTimeMs()).isEqualTo(1767225600000L);
    }

    @Test
    void withoutGtidsTheIdGivesTheBinlogPositionOfTheBegin() {
        SourceEvent data = debezium(mysqlData("null", "file=mysql-bin.000003,pos=1040"));
        SourceEvent begin = debezium("{\"status\":\"BEGIN\",\"id\":\"file=mysql-bin.000003,pos=1040\","
                + "\"event_count\":null,\"data_collections\":null,\"ts_ms\":1767225600000}");

        assertThat(data.getGtid()).isNull();
        assertThat(data.getBinlogFile()).isEqualTo("mysql-bin.000003");
        assertThat(data.getBinlogPosition()).isEqualTo(1040L);
        assertThat(begin.getBinlogFile()).isEqualTo("mysql-bin.000003");
        assertThat(begin.getBinlogPosition()).isEqualTo(1040L);
    }

    @Test
    void aSourceGtidOfAnotherShapeIsRefusedInOneLine() {
        assertThatThrownBy(() -> debezium(mysqlData("\"0-1-4711\"", "0-1-4711")))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessage("topic 't' partition 0 offset 7: field 'source.gtid' is not a MySQL GTID ('<uuid>:<n>' or "
                        + "'<uuid>:<tag>:<n>'): '0-1-4711'");
    }

    @Test
    void idsOfOtherConnectorsCarryNoPosition() {
        SourceEvent end = debezium("{\"status\":\"END\",\"id\":\"00000025:00000d08:0025\",\"event_count\":0,"
                + "\"data_collections\":[],\"ts_ms\":1}");

        assertThat(end.getCommitLsn()).isEqualTo(-1);
        assertThat(end.getGtid()).isNull();
        assertThat(end.getBinlogFile()).isNull();
    }

    @Test
    void maxwellRowsCarryPositionGtidServerIdAndTime() {
        SourceEvent row = maxwell("{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"insert\",\"ts\":1449786310,"
                + "\"xid\":940752,\"commit\":true,\"position\":\"master.000001:32125\",\"server_id\":23042,"
                + "\"gtid\":\"" + UUID + ":5\",\"data\":{\"id\":1}}");
        SourceEvent plain = maxwell("{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"insert\","
                + "\"ts\":1449786310,\"xid\":940752,\"commit\":true,\"data\":{\"id\":1}}");

        assertThat(row.getCommitSource()).isEqualTo("maxwell:23042");
        assertThat(row.getBinlogFile()).isEqualTo("master.000001");
        assertThat(row.getBinlogPosition()).isEqualTo(32125L);
        assertThat(row.getGtid()).isEqualTo(UUID.toLowerCase() + ":5");
        assertThat(row.getCommitTimeMs()).isEqualTo(1449786310000L);
        assertThat(plain.getCommitSource()).isEqualTo("maxwell");
        assertThat(plain.getBinlogFile()).isNull();
        assertThat(plain.getGtid()).isNull();
    }

    @Test
    void aMaxwellPositionOfAnotherShapeIsRefused() {
        assertThatThrownBy(() -> maxwell("{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"insert\",\"ts\":1,"
                + "\"xid\":1,\"commit\":true,\"position\":\"32125\",\"data\":{\"id\":1}}"))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessage("topic 't' partition 0 offset 7: field 'position' is not '<binlog file>:<offset>'");
    }

    private static String end(String id) {
        return "{\"status\":\"END\",\"id\":\"" + id + "\",\"event_count\":0,\"data_collections\":[],\"ts_ms\":1}";
    }

    @Test
    void aPostgresIdWhoseLsnIsNoNumberOrOverflowsIsRefusedNamingTheField() {
        for (String id : new String[] {"732:99999999999999999999999", "732:9223372036854775808", "702:xyz", "702:",
                "702:-5"}) {
            assertThatThrownBy(() -> debezium(end(id)), id)
                    .isInstanceOf(BadSourceEventException.class)
                    .hasMessage("topic 't' partition 0 offset 7: field 'id' is not '<txId>:<LSN>' (PostgreSQL; LSN "
                            + "decimal) with a decimal number up to 9223372036854775807: '" + id + "'");
        }
        assertThat(debezium(end("732:9223372036854775807")).getCommitLsn()).isEqualTo(Long.MAX_VALUE);
        assertThat(debezium(end("732")).getCommitLsn()).as("a bare txId carries no position").isEqualTo(-1);
    }

    @Test
    void aMysqlBinlogIdWhoseOffsetIsNoNumberIsRefusedOnEndAndDataEvents() {
        assertThatThrownBy(() -> debezium(end("file=binlog.000001,pos=abc")))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessage("topic 't' partition 0 offset 7: field 'id' is not 'file=<binlog file>,pos=<offset>' "
                        + "(MySQL without GTIDs) with a decimal number up to 9223372036854775807: "
                        + "'file=binlog.000001,pos=abc'");
        assertThatThrownBy(() -> debezium(mysqlData("null", "file=binlog.000001,pos=abc")))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessageStartingWith("topic 't' partition 0 offset 7: field 'transaction.id' is not 'file=");
    }

    @Test
    void aMaxwellPositionWhoseOffsetOverflowsIsRefused() {
        assertThatThrownBy(() -> maxwell("{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"insert\",\"ts\":1,"
                + "\"xid\":1,\"commit\":true,\"position\":\"master.000001:99999999999999999999\",\"data\":{\"id\":1}}"))
                .isInstanceOf(BadSourceEventException.class)
                .hasMessage("topic 't' partition 0 offset 7: field 'position' is not '<binlog file>:<offset>' with a "
                        + "decimal number up to 9223372036854775807: 'master.000001:99999999999999999999'");
    }
}
