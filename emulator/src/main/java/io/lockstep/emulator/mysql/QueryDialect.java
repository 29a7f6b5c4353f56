package io.lockstep.emulator.mysql;

/**
 * What the query port says about the server it stands for.
 *
 * @param mysqlVersion   the MySQL version in the handshake and {@code version()} / {@code @@version} (StarRocks'
 *                       FE {@code Config.mysql_server_version} is 8.0.33; Doris' FE announces 5.7.99)
 * @param versionComment {@code @@version_comment}, the product and its version
 * @param currentVersion what {@code current_version()} returns (StarRocks only), or null when the dialect has no
 *                       such function
 */
public record QueryDialect(String mysqlVersion, String versionComment, String currentVersion) {
    /** The StarRocks version the emulator reports: a 4.x release, the line that has multi-table transactions. */
    public static final String STARROCKS_VERSION = "4.0.2-lockstep";

    /** Whether this is StarRocks (which has {@code current_version()}) rather than Doris. */
    public boolean isStarRocks() {
        return currentVersion != null;
    }

    /** StarRocks 4.x. */
    public static QueryDialect starRocks() {
        return new QueryDialect("8.0.33", "StarRocks version " + STARROCKS_VERSION, STARROCKS_VERSION);
    }

    /** True for Apache Doris (the query port then lays out Doris' tables, e.g. {@code SHOW PROC}'s). */
    public boolean isDoris() {
        return versionComment.startsWith("Doris");
    }

    /** Apache Doris 2.1. */
    public static QueryDialect doris() {
        return new QueryDialect("5.7.99", "Doris version doris-2.1.8-lockstep", null);
    }
}
