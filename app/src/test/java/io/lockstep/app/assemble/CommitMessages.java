package io.lockstep.app.assemble;

import io.lockstep.app.event.DebeziumDecoder;
import io.lockstep.app.event.MaxwellDecoder;
import io.lockstep.app.event.SourceEvent;
import io.lockstep.app.event.SourceRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * Source transactions as their connectors write them, with their commit positions, decoded by the real decoders
 * onto one topic partition at growing offsets. Shapes:
 * <ul>
 *   <li>Debezium PostgreSQL: BEGIN/END {@code id} {@code "<txId>:<LSN>"} (END: the commit LSN), data events with
 *       {@code source} {@code connector}, {@code name}, {@code txId}, {@code lsn}, {@code sequence} and
 *       {@code transaction} {@code id}/{@code total_order}/{@code data_collection_order}
 *       (https://debezium.io/documentation/reference/stable/connectors/postgresql.html#postgresql-transaction-metadata;
 *       the real topic {@code debezium/pg-crash-resend.jsonl} has the same fields);
 *   <li>Debezium MySQL: {@code id} the GTID, or {@code file=<file>,pos=<BEGIN position>} without GTIDs
 *       ({@code binlog/BinlogOffsetContext.NON_GTID_TRANSACTION_ID_FORMAT}), {@code source.gtid}, {@code file},
 *       {@code pos}, {@code server_id} (https://debezium.io/documentation/reference/stable/connectors/mysql.html);
 *   <li>Maxwell: {@code database}, {@code table}, {@code type}, {@code ts} (seconds), {@code xid}, {@code commit}
 *       on the last row, {@code position} {@code "<file>:<offset>"}, {@code gtid}, {@code server_id}
 *       (zendesk/maxwell {@code RowMap.toJSON}; https://maxwells-daemon.io/config/ output_binlog_position,
 *       output_gtid_position, output_server_id).
 * </ul>
 */
final class CommitMessages {

    static final String TOPIC = "cdc.all";

    private final DebeziumDecoder debezium = new DebeziumDecoder();
    private final MaxwellDecoder maxwell = new MaxwellDecoder();
    private long offset;
    /** Debezium PostgreSQL {@code source.name} (the connector's {@code topic.prefix}). */
    String pgName = "pg1";

    /** @return a row of table {@code shop.orders} with key {@code id} */
    static String order(int id, String note) {
        return "{\"id\":" + id + ",\"note\":\"" + note + "\"}";
    }

    /** A whole PostgreSQL transaction: BEGIN, one insert per row (LSNs from {@code beginLsn}), END at the commit LSN. */
    List<SourceEvent> pg(long txId, long beginLsn, long commitLsn, long tsMs, String... rows) {
        List<SourceEvent> events = new ArrayList<>();
        events.add(debezium("{\"status\":\"BEGIN\",\"id\":\"" + txId + ":" + beginLsn + "\",\"event_count\":null,"
                + "\"data_collections\":null,\"ts_ms\":" + tsMs + "}"));
        events.addAll(pgRows(txId, beginLsn, tsMs, 1, rows));
        events.add(pgEnd(txId, commitLsn, tsMs, rows.length));
        return events;
    }

    /** Data events of a PostgreSQL transaction, numbered from {@code firstOrder}. */
    List<SourceEvent> pgRows(long txId, long beginLsn, long tsMs, int firstOrder, String... rows) {
        List<SourceEvent> events = new ArrayList<>();
        for (int i = 0; i < rows.length; i++) {
            long lsn = beginLsn + 100L * (firstOrder + i);
            events.add(debezium("{\"before\":null,\"after\":" + rows[i] + ",\"source\":{\"version\":\"3.6.1.Final\","
                    + "\"connector\":\"postgresql\",\"name\":\"" + pgName + "\",\"ts_ms\":" + tsMs + ",\"snapshot\":\"false\","
                    + "\"db\":\"postgres\",\"sequence\":\"[null,\\\"" + lsn + "\\\"]\",\"schema\":\"shop\","
                    + "\"table\":\"orders\",\"txId\":" + txId + ",\"lsn\":" + lsn + ",\"xmin\":null},\"op\":\"c\","
                    + "\"ts_ms\":" + tsMs + ",\"transaction\":{\"id\":\"" + txId + ":" + lsn + "\",\"total_order\":"
                    + (firstOrder + i) + ",\"data_collection_order\":" + (firstOrder + i) + "}}"));
        }
        return events;
    }

    SourceEvent pgEnd(long txId, long commitLsn, long tsMs, int eventCount) {
        return debezium("{\"status\":\"END\",\"id\":\"" + txId + ":" + commitLsn + "\",\"event_count\":" + eventCount
                + ",\"data_collections\":[{\"data_collection\":\"shop.orders\",\"event_count\":" + eventCount + "}],"
                + "\"ts_ms\":" + tsMs + "}");
    }

    /** A PostgreSQL END whose id is a bare {@code txId} (no commit LSN, as before Debezium wrote {@code txId:LSN}). */
    SourceEvent pgEndWithoutLsn(long txId, long tsMs, int eventCount) {
        return debezium("{\"status\":\"END\",\"id\":\"" + txId + "\",\"event_count\":" + eventCount
                + ",\"data_collections\":[{\"data_collection\":\"shop.orders\",\"event_count\":" + eventCount + "}],"
                + "\"ts_ms\":" + tsMs + "}");
    }

    /**
     * A whole MySQL transaction as Debezium writes it.
     *
     * @param gtid the GTID, or {@code null} without GTIDs (the id is then {@code file=..,pos=..} of the BEGIN)
     */
    List<SourceEvent> mysql(String gtid, String file, long beginPos, long tsMs, String... rows) {
        String id = gtid != null ? gtid : "file=" + file + ",pos=" + beginPos;
        List<SourceEvent> events = new ArrayList<>();
        events.add(debezium("{\"status\":\"BEGIN\",\"id\":\"" + id + "\",\"event_count\":null,"
                + "\"data_collections\":null,\"ts_ms\":" + tsMs + "}"));
        for (int i = 0; i < rows.length; i++) {
            events.add(debezium("{\"before\":null,\"after\":" + rows[i] + ",\"source\":{\"version\":\"3.6.1.Final\","
                    + "\"connector\":\"mysql\",\"name\":\"db1\",\"ts_ms\":" + tsMs + ",\"snapshot\":\"false\","
                    + "\"db\":\"shop\",\"sequence\":null,\"table\":\"orders\",\"server_id\":223344,\"gtid\":"
                    + (gtid == null ? "null" : "\"" + gtid + "\"") + ",\"file\":\"" + file + "\",\"pos\":"
                    + (beginPos + 200 + 100L * i) + ",\"row\":0,\"thread\":7,\"query\":null},\"op\":\"c\","
                    + "\"ts_ms\":" + tsMs + ",\"transaction\":{\"id\":\"" + id + "\",\"total_order\":" + (i + 1)
                    + ",\"data_collection_order\":" + (i + 1) + "}}"));
        }
        events.add(debezium("{\"status\":\"END\",\"id\":\"" + id + "\",\"event_count\":" + rows.length
                + ",\"data_collections\":[{\"data_collection\":\"shop.orders\",\"event_count\":" + rows.length + "}],"
                + "\"ts_ms\":" + tsMs + "}"));
        return events;
    }

    /**
     * A whole Maxwell transaction: one insert per row, {@code commit: true} on the last.
     *
     * @param file binlog file, or {@code null} without {@code output_binlog_position}
     * @param gtid GTID, or {@code null} without {@code output_gtid_position}
     * @param serverId {@code server_id}, or {@code null} without {@code output_server_id}
     */
    List<SourceEvent> maxwell(long xid, String file, long endPos, String gtid, Long serverId, long tsSeconds,
            String... rows) {
        List<SourceEvent> events = new ArrayList<>();
        for (int i = 0; i < rows.length; i++) {
            boolean last = i == rows.length - 1;
            String value = "{\"database\":\"shop\",\"table\":\"orders\",\"type\":\"insert\",\"ts\":" + tsSeconds
                    + ",\"xid\":" + xid + (last ? ",\"commit\":true" : "")
                    + (file == null ? "" : ",\"position\":\"" + file + ":" + (endPos - 100L * (rows.length - 1 - i)) + "\"")
                    + (gtid == null ? "" : ",\"gtid\":\"" + gtid + "\"")
                    + (serverId == null ? "" : ",\"server_id\":" + serverId)
                    + ",\"data\":" + rows[i] + "}";
            events.add(maxwell.decode(new SourceRecord(TOPIC, 0, offset++, null, value)));
        }
        return events;
    }

    /** A Debezium snapshot row ({@code op: r}, no transaction block). */
    SourceEvent pgSnapshot(String row) {
        return debezium("{\"before\":null,\"after\":" + row + ",\"source\":{\"version\":\"3.6.1.Final\","
                + "\"connector\":\"postgresql\",\"name\":\"pg1\",\"ts_ms\":1767225600000,\"snapshot\":\"true\","
                + "\"db\":\"postgres\",\"sequence\":\"[null,\\\"23000000\\\"]\",\"schema\":\"shop\","
                + "\"table\":\"orders\",\"txId\":700,\"lsn\":23000000,\"xmin\":null},\"op\":\"r\","
                + "\"ts_ms\":1767225600000,\"transaction\":null}");
    }

    private SourceEvent debezium(String value) {
        return debezium.decode(new SourceRecord(TOPIC, 0, offset++, null, value));
    }
}
