package io.lockstep.app.event;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the source commit position fields of a {@link SourceEvent} out of what Debezium and Maxwell write
 * (docs/input-formats.md#source-commit-positions-and-re-sends). Shapes:
 * <ul>
 *   <li>Debezium PostgreSQL BEGIN/END id {@code <txId>:<LSN>} (both decimal; {@code pg/pipeline/txmetadata/
 *       PostgresTransactionMonitor.adjustTxId}): on END the LSN is the end of the commit record, the commit position;
 *   <li>Debezium MySQL id with GTIDs: the GTID ({@link Gtid}); without: {@code file=<binlog file>,pos=<BEGIN
 *       event position>} ({@code binlog/BinlogOffsetContext.NON_GTID_TRANSACTION_ID_FORMAT}, set in
 *       {@code startNextTransaction});
 *   <li>Maxwell {@code position}: {@code <binlog file>:<offset>} ({@code RowMap.toJSON}, the position after the rows
 *       event), {@code gtid}: a GTID, {@code server_id}: a number.
 * </ul>
 * A field present but of another shape is refused ({@link BadSourceEventException} naming the field and the
 * position), so a commit position is never half read.
 */
final class CommitPositionFields {

    private static final Pattern POSTGRES_ID = Pattern.compile("(\\d{1,19}):(\\d{1,19})");
    private static final Pattern MYSQL_BINLOG_ID = Pattern.compile("file=([^,]+),pos=(\\d{1,19})");
    private static final Pattern MAXWELL_POSITION = Pattern.compile("(.+):(\\d{1,19})");

    private CommitPositionFields() {
    }

    /**
     * Debezium BEGIN/END: sets {@code commitLsn} (PostgreSQL id), {@code gtid} or {@code binlogFile}/
     * {@code binlogPosition} (MySQL ids) from the id, and {@code commitTimeMs} from {@code ts_ms}; an id of another
     * shape (SQL Server, MariaDB, ...) sets no position.
     */
    static void fromDebeziumTransaction(SourceEvent event, String id, JsonNode body) {
        Matcher pg = POSTGRES_ID.matcher(id);
        Matcher binlog = MYSQL_BINLOG_ID.matcher(id);
        Gtid gtid = Gtid.parseOrNull(id);
        if (pg.matches()) {
            event.setCommitLsn(parseLong(pg.group(2)));
        } else if (gtid != null) {
            event.setGtid(gtid.toString());
        } else if (binlog.matches()) {
            event.setBinlogFile(binlog.group(1));
            event.setBinlogPosition(parseLong(binlog.group(2)));
        }
        if (body.path("ts_ms").isIntegralNumber()) {
            event.setCommitTimeMs(body.path("ts_ms").asLong());
        }
    }

    /**
     * Debezium data event: {@code commitSource} = {@code source.connector + ":" + source.name} for the connectors
     * whose commit position Lockstep reads ({@code postgresql}, {@code mysql}); {@code gtid} from {@code source.gtid}.
     */
    static void fromDebeziumSource(SourceEvent event, JsonNode source, String position) {
        String connector = source.path("connector").asText("");
        String name = source.path("name").asText("");
        if (name.isEmpty() || !("postgresql".equals(connector) || "mysql".equals(connector))) {
            return;
        }
        event.setCommitSource(connector + ":" + name);
        if (source.hasNonNull("gtid")) {
            event.setGtid(gtid(source.path("gtid").asText(), "source.gtid", position));
        }
    }

    /**
     * Debezium MySQL data event: its {@code transaction.id} is the transaction's GTID or {@code file=F,pos=P} (as on
     * BEGIN/END), read into {@code gtid} or {@code binlogFile}/{@code binlogPosition} when not set already.
     */
    static void fromDebeziumDataId(SourceEvent event, String id) {
        if (event.getCommitSource() == null || !event.getCommitSource().startsWith("mysql:")) {
            return;
        }
        Gtid gtid = Gtid.parseOrNull(id);
        Matcher binlog = MYSQL_BINLOG_ID.matcher(id);
        if (gtid != null && event.getGtid() == null) {
            event.setGtid(gtid.toString());
        } else if (gtid == null && binlog.matches()) {
            event.setBinlogFile(binlog.group(1));
            event.setBinlogPosition(parseLong(binlog.group(2)));
        }
    }

    /** Maxwell row: {@code commitSource} {@code maxwell[:server_id]}, {@code position}, {@code gtid}, {@code ts}. */
    static void fromMaxwell(SourceEvent event, JsonNode root, String position) {
        JsonNode serverId = root.get("server_id");
        event.setCommitSource(serverId != null && serverId.isIntegralNumber()
                ? "maxwell:" + serverId.asLong() : "maxwell");
        if (root.hasNonNull("position")) {
            Matcher m = MAXWELL_POSITION.matcher(root.path("position").asText());
            if (!m.matches()) {
                throw new BadSourceEventException(position, "field 'position' is not '<binlog file>:<offset>'");
            }
            event.setBinlogFile(m.group(1));
            event.setBinlogPosition(parseLong(m.group(2)));
        }
        if (root.hasNonNull("gtid")) {
            event.setGtid(gtid(root.path("gtid").asText(), "gtid", position));
        }
        if (root.path("ts").isIntegralNumber()) {
            event.setCommitTimeMs(root.path("ts").asLong() * 1000);
        }
    }

    private static String gtid(String text, String field, String position) {
        Gtid gtid = Gtid.parseOrNull(text);
        if (gtid == null) {
            throw new BadSourceEventException(position, "field '" + field + "' is not a MySQL GTID "
                    + "('<uuid>:<n>' or '<uuid>:<tag>:<n>'): '" + SourceEvent.ddlExcerpt(text) + "'");
        }
        return gtid.toString();
    }

    private static long parseLong(String digits) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            return -1; // beyond a long: no position
        }
    }
}
