package io.lockstep.app.testing;

/** The progress table of the exactly-once multi-table mode (docs/exactly-once.md), for the tests' emulators. */
public final class ProgressTable {
    private ProgressTable() {
    }

    /** @return {@code CREATE TABLE <database>.lockstep_progress ...;} */
    public static String ddl(String database) {
        return "CREATE TABLE " + database + ".lockstep_progress (job_id VARCHAR(256) NOT NULL, "
                + "source VARCHAR(256) NOT NULL, source_partition INT NOT NULL, position BIGINT, run_id VARCHAR(64), "
                + "label VARCHAR(256), committed_at DATETIME) PRIMARY KEY (job_id, source, source_partition) "
                + "DISTRIBUTED BY HASH(job_id);";
    }
}
