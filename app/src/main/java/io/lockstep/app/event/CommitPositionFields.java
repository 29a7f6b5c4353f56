package io.lockstep.app.event;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

    /** A PostgreSQL id: a decimal {@code txId}, one {@code :} and the rest (which must be a decimal LSN). */
    private static final Pattern POSTGRES_ID = Pattern.compile("(\\d{1,19}):([^:]*)");
    /** A MySQL id without GTIDs: {@code file=<binlog file>,pos=} and the rest (which must be a decimal offset). */
    private static final Pattern MYSQL_BINLOG_ID = Pattern.compile("file=([^,]+),pos=(.*)");
    private static final String BINLOG_ID_SHAPE = "'file=<binlog file>,pos=<offset>' (MySQL without GTIDs)";
    /** Reads PostgreSQL's {@code source.sequence} text; thread safe (Jackson documents ObjectMapper as such). */
    private static final ObjectMapper SEQUENCE_READER = new ObjectMapper();
    private static final Pattern MAXWELL_POSITION = Pattern.compile("(.+):([^:]*)");

    private CommitPositionFields() {
    }

    /**
     * Debezium BEGIN/END: sets {@code commitLsn} (PostgreSQL id), {@code gtid} or {@code binlogFile}/
     * {@code binlogPosition} (MySQL ids) from the id, and {@code commitTimeMs} from {@code ts_ms}; an id of another
     * shape (SQL Server {@code a:b:c}, MariaDB, a bare PostgreSQL {@code txId}, ...) sets no position.
     *
     * @param position where the event is (topic, partition, offset), for errors
     * @throws BadSourceEventException when the id has a PostgreSQL id's shape ({@code <digits>:...}) or a MySQL binlog
     *     id's ({@code file=...,pos=...}) but its LSN or offset is not a decimal number that fits a signed 64-bit
     *     integer: a position half read would load the transaction without one, and its re-send a second time
     */
    static void fromDebeziumTransaction(SourceEvent event, String id, JsonNode body, String position) {
        Matcher pg = POSTGRES_ID.matcher(id);
        Matcher binlog = MYSQL_BINLOG_ID.matcher(id);
        Gtid gtid = Gtid.parseOrNull(id);
        if (pg.matches()) {
            event.setCommitLsn(number(pg.group(2), "id", "'<txId>:<LSN>' (PostgreSQL; LSN decimal)", id, position));
        } else if (gtid != null) {
            event.setGtid(gtid.toString());
        } else if (binlog.matches()) {
            event.setBinlogFile(binlog.group(1));
            event.setBinlogPosition(number(binlog.group(2), "id", BINLOG_ID_SHAPE, id, position));
        }
        if (body.path("ts_ms").isIntegralNumber()) {
            event.setCommitTimeMs(body.path("ts_ms").asLong());
        }
    }

    /**
     * Debezium data event: {@code commitSource} = {@code source.connector + ":" + source.name} for the connectors
     * whose commit position Lockstep reads ({@code postgresql}, {@code mysql}); {@code gtid} from {@code source.gtid};
     * PostgreSQL {@code previousCommitLsn} from {@code source.sequence[0]}.
     */
    static void fromDebeziumSource(SourceEvent event, JsonNode source, String position) {
        String connector = source.path("connector").asText("");
        String name = source.path("name").asText("");
        if (name.isEmpty() || !("postgresql".equals(connector) || "mysql".equals(connector))) {
            return;
        }
        event.setCommitSource(connector + ":" + name);
        if ("postgresql".equals(connector) && source.hasNonNull("sequence")) {
            event.setPreviousCommitLsn(previousCommitLsn(source.path("sequence"), position));
        }
        if (source.hasNonNull("gtid")) {
            event.setGtid(gtid(source.path("gtid").asText(), "source.gtid", position));
        }
    }

    /**
     * PostgreSQL {@code source.sequence}: a JSON array as text, {@code ["<last commit LSN>","<event LSN>"]}, both
     * decimal or {@code null} ({@code postgresql/SourceInfo.sequence()}; the first is the commit LSN of the transaction
     * committed before the event's, {@code PostgresOffsetContext.updateCommitPosition}).
     *
     * @return the first element, or -1 when it is {@code null}
     * @throws BadSourceEventException when the field is not such an array
     */
    private static long previousCommitLsn(JsonNode sequence, String position) {
        String shape = "a JSON array text '[\"<last commit LSN>\",\"<LSN>\"]' (PostgreSQL)";
        JsonNode array;
        try {
            array = sequence.isTextual() ? SEQUENCE_READER.readTree(sequence.asText()) : sequence;
        } catch (JsonProcessingException e) {
            array = null;
        }
        if (array == null || !array.isArray() || array.isEmpty()) {
            throw new BadSourceEventException(position, "field 'source.sequence' is not " + shape + ": '"
                    + SourceEvent.ddlExcerpt(sequence.toString()) + "'");
        }
        JsonNode first = array.get(0);
        return first.isNull() ? -1 : number(first.asText(), "source.sequence", shape, sequence.toString(), position);
    }

    /**
     * Debezium MySQL data event: its {@code transaction.id} is the transaction's GTID or {@code file=F,pos=P} (as on
     * BEGIN/END), read into {@code gtid} or {@code binlogFile}/{@code binlogPosition} when not set already.
     */
    static void fromDebeziumDataId(SourceEvent event, String id, String position) {
        if (event.getCommitSource() == null || !event.getCommitSource().startsWith("mysql:")) {
            return;
        }
        Gtid gtid = Gtid.parseOrNull(id);
        Matcher binlog = MYSQL_BINLOG_ID.matcher(id);
        if (gtid != null && event.getGtid() == null) {
            event.setGtid(gtid.toString());
        } else if (gtid == null && binlog.matches()) {
            event.setBinlogFile(binlog.group(1));
            event.setBinlogPosition(number(binlog.group(2), "transaction.id", BINLOG_ID_SHAPE, id, position));
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
            event.setBinlogPosition(number(m.group(2), "position", "'<binlog file>:<offset>'",
                    root.path("position").asText(), position));
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

    /**
     * @return {@code digits} as a number
     * @throws BadSourceEventException when it is not a decimal number from 0 to {@link Long#MAX_VALUE}
     */
    private static long number(String digits, String field, String shape, String value, String position) {
        if (!digits.isEmpty() && digits.length() <= 19 && digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            try {
                return Long.parseLong(digits);
            } catch (NumberFormatException e) {
                // 19 digits above Long.MAX_VALUE: refused below
            }
        }
        throw new BadSourceEventException(position, "field '" + field + "' is not " + shape + " with a decimal "
                + "number up to " + Long.MAX_VALUE + ": '" + SourceEvent.ddlExcerpt(value) + "'");
    }
}
