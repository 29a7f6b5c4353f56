package io.lockstep.app.event;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One MySQL GTID, {@code <server uuid>:<n>} or, tagged (MySQL 8.3 and later), {@code <server uuid>:<tag>:<n>}
 * ([MySQL 8.4: GTID Format and Storage](https://dev.mysql.com/doc/refman/8.4/en/replication-gtids-concepts.html)):
 * {@code sourceId} is the uuid, or uuid and tag joined by {@code :}, both in lower case (MySQL compares tags without
 * case), and {@code number} the transaction's sequence number (&gt;= 1) on that source id. GTIDs of one source id are
 * numbered in commit order on their server of origin; across source ids they carry no order. Immutable.
 *
 * @param sourceId {@code uuid} or {@code uuid:tag}, lower case
 * @param number the sequence number, &gt;= 1
 */
public record Gtid(String sourceId, long number) {

    /** uuid, optional tag (a letter or {@code _}, then up to 31 letters, digits or {@code _}), number. */
    private static final Pattern SHAPE = Pattern.compile(
            "([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"
                    + "(?::([A-Za-z_][A-Za-z0-9_]{0,31}))?:([1-9][0-9]{0,18})");

    /**
     * @param text a GTID as Debezium ({@code source.gtid}, {@code transaction.id}) or Maxwell ({@code gtid}) write it
     * @return the GTID, or {@code null} when {@code text} does not have a GTID's shape
     */
    public static Gtid parseOrNull(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = SHAPE.matcher(text.strip());
        if (!m.matches()) {
            return null;
        }
        String id = m.group(1).toLowerCase(Locale.ROOT) + (m.group(2) == null ? "" : ":" + m.group(2).toLowerCase(Locale.ROOT));
        try {
            return new Gtid(id, Long.parseLong(m.group(3)));
        } catch (NumberFormatException e) {
            return null; // above Long.MAX_VALUE
        }
    }

    /** @return {@code sourceId:number}, the GTID's own notation */
    @Override
    public String toString() {
        return sourceId + ":" + number;
    }
}
