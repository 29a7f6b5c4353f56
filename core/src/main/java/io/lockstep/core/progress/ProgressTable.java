package io.lockstep.core.progress;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.core.client.SqlColumn;
import io.lockstep.core.format.JsonLoadFormat;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The progress table of the multi-table exactly-once mode: its DDL (the one place it is written), its columns, the
 * JSON rows a shared transaction loads into it, and the check of an existing table's columns.
 *
 * <p>One row per (job id, source, source partition) holds the highest source position a commit made visible, with
 * the run id, the shared label and the commit time of the transaction that wrote it. Each run of a sink subtask also
 * keeps one registration row: source {@code #run:<runId>}, source partition = subtask index, position = the last
 * shared-transaction cycle the run committed (0 once registered, {@link #RUN_CLOSED} once a later run settled it).
 * A source transaction that carries its source database's commit position (a transaction end's commit source and
 * position) adds one row per (commit source, source partition): source {@code #commit:<commitSource>}, position = the
 * source position of that transaction's end, {@code commit_position} = the position text as the transaction assembler
 * wrote it (the last transaction end of the shared transaction wins; the sink never parses it). Every other row leaves
 * {@code commit_position} NULL. Source names starting with {@code #} are reserved for these rows (Kafka topic names
 * cannot contain {@code #}).
 *
 * <p>Two shapes are accepted ({@link ProgressTableShape}): the current eight columns, and the seven columns of tables
 * created before {@code commit_position} existed (legacy: no {@code #commit:} rows are written;
 * {@link #addCommitPositionColumnSql()} upgrades it in place).
 *
 * <p>A PRIMARY KEY table (StarRocks docs, "Primary Key table"): a load upserts by key, so a commit replaces a
 * partition's row with the newer position. Immutable and thread-safe.
 */
public final class ProgressTable {
    /** Default table name ({@code sink.transaction.multi-table.progress-table}). */
    public static final String DEFAULT_NAME = "lockstep_progress";
    /** Source prefix of run registration rows. */
    public static final String RUN_SOURCE_PREFIX = "#run:";
    /** Source prefix of the commit position rows ({@code #commit:<commitSource>}). */
    public static final String COMMIT_SOURCE_PREFIX = "#commit:";
    /** Every source starting with this is a row of Lockstep's own (run, commit position), never a source name. */
    public static final String RESERVED_SOURCE_PREFIX = "#";
    /** Position of a run row once a later run settled every label of that run. */
    public static final long RUN_CLOSED = -1L;

    /** The columns in order, with the StarRocks type family each must have (as the HTTP SQL API prints it). */
    public static final List<String> COLUMNS = List.of("job_id", "source", "source_partition", "position", "run_id",
            "label", "committed_at", "commit_position");
    private static final List<String> TYPE_FAMILIES = List.of("varchar", "varchar", "int", "bigint", "varchar",
            "varchar", "datetime", "varchar");
    /**
     * Stream load headers of every load into the progress table: JSON arrays, nothing else (the user's
     * {@code sink.properties.*}, e.g. {@code columns} or {@code partial_update}, are meant for the data tables).
     */
    public static final Map<String, String> LOAD_PROPERTIES = JsonLoadFormat.INSTANCE.headers();
    /** Columns of a table created before {@code commit_position} existed: the first seven. */
    static final int LEGACY_COLUMN_COUNT = 7;
    private static final Pattern NAME = Pattern.compile("^[A-Za-z_][A-Za-z0-9_]{0,63}$");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String database;
    private final String table;

    /**
     * @param database the database of the shared transactions
     * @param table    the table name (letters, digits, {@code _}; not starting with a digit)
     * @throws IllegalArgumentException naming the bad name
     */
    public ProgressTable(String database, String table) {
        this.database = Objects.requireNonNull(database, "database");
        this.table = Objects.requireNonNull(table, "table");
        if (!NAME.matcher(table).matches()) {
            throw new IllegalArgumentException("progress table name '" + table + "' is invalid: expected 1 to 64 "
                    + "letters, digits or '_', not starting with a digit");
        }
        if (!NAME.matcher(database).matches()) {
            throw new IllegalArgumentException("database name '" + database + "' cannot hold the progress table: "
                    + "expected 1 to 64 letters, digits or '_', not starting with a digit");
        }
    }

    /** The database. */
    public String database() {
        return database;
    }

    /** The table name. */
    public String table() {
        return table;
    }

    /** {@code database.table}. */
    public String qualifiedName() {
        return database + "." + table;
    }

    /** The exact statement that creates the table (StarRocks DDL; PRIMARY KEY, hashed by job id). */
    public String createTableSql() {
        return "CREATE TABLE IF NOT EXISTS " + qualifiedName() + " (\n"
                + "  job_id VARCHAR(64) NOT NULL,\n"
                + "  source VARCHAR(255) NOT NULL,\n"
                + "  source_partition INT NOT NULL,\n"
                + "  position BIGINT NOT NULL,\n"
                + "  run_id VARCHAR(32) NOT NULL,\n"
                + "  label VARCHAR(128) NOT NULL,\n"
                + "  committed_at DATETIME NOT NULL,\n"
                + "  commit_position VARCHAR(65533) NULL\n"
                + ") PRIMARY KEY (job_id, source, source_partition)\n"
                + "DISTRIBUTED BY HASH(job_id) BUCKETS 1;";
    }

    /**
     * The statement that upgrades a legacy seven-column table in place: a nullable column appended by an asynchronous
     * schema change (StarRocks docs, "ALTER TABLE", ADD COLUMN; {@code SHOW ALTER TABLE COLUMN} shows when it is
     * finished); existing rows read NULL there.
     */
    public String addCommitPositionColumnSql() {
        return "ALTER TABLE " + qualifiedName() + " ADD COLUMN commit_position VARCHAR(65533) NULL";
    }

    /**
     * The SELECT that reads every row of {@code jobId} (SELECT only, as the HTTP SQL API requires): the columns of
     * {@code shape} in order.
     */
    public String selectJobSql(String jobId, ProgressTableShape shape) {
        List<String> columns = shape.hasCommitPositions() ? COLUMNS : COLUMNS.subList(0, LEGACY_COLUMN_COUNT);
        return "SELECT " + String.join(", ", columns) + " FROM " + qualifiedName() + " WHERE job_id = '"
                + checkedJobId(jobId) + "'";
    }

    /** A SELECT that returns the table's columns and no row, for {@link #checkColumns}. */
    public String probeSql() {
        return "SELECT * FROM " + qualifiedName() + " LIMIT 0";
    }

    /**
     * Checks the columns a {@link #probeSql()} returned: names in order and type families, all eight or the first
     * seven (a legacy table).
     *
     * @return which shape the table has
     * @throws ProgressTableException naming the first difference and showing the expected DDL
     */
    public ProgressTableShape checkColumns(List<SqlColumn> columns) {
        List<String> found = new ArrayList<>();
        for (SqlColumn c : columns) {
            found.add(c.name().toLowerCase(Locale.ROOT) + " " + c.type());
        }
        boolean ok = columns.size() == COLUMNS.size() || columns.size() == LEGACY_COLUMN_COUNT;
        for (int i = 0; ok && i < columns.size(); i++) {
            SqlColumn c = columns.get(i);
            ok = c.name().equalsIgnoreCase(COLUMNS.get(i))
                    && c.type().toLowerCase(Locale.ROOT).startsWith(TYPE_FAMILIES.get(i));
        }
        if (!ok) {
            throw new ProgressTableException("progress table " + qualifiedName() + " has the columns " + found
                    + " but multi-table exactly-once needs " + expectedColumns() + "; recreate it (or name another "
                    + "table with sink.transaction.multi-table.progress-table) with:\n" + createTableSql());
        }
        return columns.size() == COLUMNS.size() ? ProgressTableShape.WITH_COMMIT_POSITIONS : ProgressTableShape.LEGACY;
    }

    private static String expectedColumns() {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < COLUMNS.size(); i++) {
            expected.add(COLUMNS.get(i) + " " + TYPE_FAMILIES.get(i));
        }
        return expected.toString();
    }

    /**
     * The JSON array body of one load into the progress table.
     *
     * @param rows the rows; {@code committedAt} is the commit time to write ({@code yyyy-MM-dd HH:mm:ss})
     */
    public static byte[] body(List<ProgressRow> rows) {
        ArrayNode array = JSON.createArrayNode();
        for (ProgressRow row : rows) {
            ObjectNode o = array.addObject();
            o.put("job_id", row.jobId());
            o.put("source", row.source());
            o.put("source_partition", row.sourcePartition());
            o.put("position", row.position());
            o.put("run_id", row.runId());
            o.put("label", row.label());
            o.put("committed_at", row.committedAt());
            if (row.commitPosition() != null) { // only commit rows: the key is unknown to a legacy table
                o.put("commit_position", row.commitPosition());
            }
        }
        return array.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The source name of the commit position rows of {@code commitSource}: {@code #commit:<commitSource>}. */
    public static String commitSource(String commitSource) {
        return COMMIT_SOURCE_PREFIX + commitSource;
    }

    /** The source name of run {@code runId}'s registration row. */
    public static String runSource(String runId) {
        return RUN_SOURCE_PREFIX + runId;
    }

    /**
     * @return the job id
     * @throws IllegalArgumentException if it is not 1 to 64 letters, digits, {@code _} or {@code -} (it is written
     *                                  into SQL and labels)
     */
    public static String checkedJobId(String jobId) {
        if (jobId == null || !jobId.matches("^[-\\w]{1,64}$")) {
            throw new IllegalArgumentException("job id '" + jobId + "' is invalid: expected 1 to 64 letters, digits, "
                    + "'_' or '-'");
        }
        return jobId;
    }
}
