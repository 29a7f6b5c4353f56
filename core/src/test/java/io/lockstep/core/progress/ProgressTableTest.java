package io.lockstep.core.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.client.SqlColumn;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The progress table's two shapes, the rows it loads and what is read back from them (no server). */
class ProgressTableTest {
    private static final ProgressTable TABLE = new ProgressTable("shop", "lockstep_progress");
    private static final List<SqlColumn> LEGACY = List.of(new SqlColumn("job_id", "varchar(64)"),
            new SqlColumn("source", "varchar(255)"), new SqlColumn("source_partition", "int(11)"),
            new SqlColumn("position", "bigint(20)"), new SqlColumn("run_id", "varchar(32)"),
            new SqlColumn("label", "varchar(128)"), new SqlColumn("committed_at", "datetime"));

    private static List<SqlColumn> current() {
        List<SqlColumn> columns = new ArrayList<>(LEGACY);
        columns.add(new SqlColumn("commit_position", "varchar(65533)"));
        return columns;
    }

    @Test
    void theDdlEndsWithTheNullableCommitPositionColumnAndBothShapesAreAccepted() {
        assertThat(TABLE.createTableSql()).contains("  committed_at DATETIME NOT NULL,\n"
                + "  commit_position VARCHAR(65533) NULL\n) PRIMARY KEY (job_id, source, source_partition)");
        assertThat(TABLE.checkColumns(current())).isEqualTo(ProgressTableShape.WITH_COMMIT_POSITIONS);
        assertThat(TABLE.checkColumns(LEGACY)).isEqualTo(ProgressTableShape.LEGACY);
        assertThat(ProgressTableShape.LEGACY.hasCommitPositions()).isFalse();
        assertThat(TABLE.addCommitPositionColumnSql())
                .isEqualTo("ALTER TABLE shop.lockstep_progress ADD COLUMN commit_position VARCHAR(65533) NULL");
        assertThat(TABLE.selectJobSql("job-1", ProgressTableShape.LEGACY)).isEqualTo("SELECT job_id, source, "
                + "source_partition, position, run_id, label, committed_at FROM shop.lockstep_progress WHERE job_id "
                + "= 'job-1'");
        assertThat(TABLE.selectJobSql("job-1", ProgressTableShape.WITH_COMMIT_POSITIONS))
                .contains("committed_at, commit_position FROM");
    }

    @Test
    void anEighthColumnOfAnotherTypeOrSixColumnsAreRefusedWithTheDdl() {
        List<SqlColumn> wrongType = new ArrayList<>(LEGACY);
        wrongType.add(new SqlColumn("commit_position", "bigint(20)"));
        assertThatThrownBy(() -> TABLE.checkColumns(wrongType)).isInstanceOf(ProgressTableException.class)
                .hasMessageContaining("commit_position bigint(20)").hasMessageEndingWith(TABLE.createTableSql());
        assertThatThrownBy(() -> TABLE.checkColumns(LEGACY.subList(0, 6)))
                .isInstanceOf(ProgressTableException.class).hasMessageContaining("commit_position varchar");
    }

    @Test
    void onlyCommitRowsCarryTheCommitPositionKeySoALegacyTableNeverSeesIt() {
        String body = new String(ProgressTable.body(List.of(
                new ProgressRow("j", "topic", 0, 5, "r1", "l1", "2026-01-01 00:00:00"),
                new ProgressRow("j", ProgressTable.commitSource("postgresql:pg1"), 0, 5, "r1", "l1",
                        "2026-01-01 00:00:00", "{\"lsn\":\"0/1\"}"))), StandardCharsets.UTF_8);
        assertThat(body).startsWith("[{\"job_id\":\"j\",\"source\":\"topic\",\"source_partition\":0,\"position\":5,"
                        + "\"run_id\":\"r1\",\"label\":\"l1\",\"committed_at\":\"2026-01-01 00:00:00\"},")
                .endsWith("\"source\":\"#commit:postgresql:pg1\",\"source_partition\":0,\"position\":5,\"run_id\":"
                        + "\"r1\",\"label\":\"l1\",\"committed_at\":\"2026-01-01 00:00:00\",\"commit_position\":"
                        + "\"{\\\"lsn\\\":\\\"0/1\\\"}\"}]");
    }

    /** Rows starting with '#' are never source positions: runs, commit positions, and kinds a later release adds. */
    @Test
    void positionsLeaveOutEveryHashRowAndCommitsAreReadByCommitSourceAndPartition() {
        CommittedPositions read = ProgressStore.positionsOf(List.of(
                new ProgressRow("j", "topic", 0, 5, "r1", "l1", null),
                new ProgressRow("j", "#run:r1", 0, 3, "r1", "l1", null),
                new ProgressRow("j", "#commit:postgresql:pg1", 0, 5, "r1", "l1", null, "{\"a\":1}"),
                new ProgressRow("j", "#commit:maxwell", 1, 9, "r1", "l1", null, "m"),
                new ProgressRow("j", "#later:x", 0, 99, "r1", "l1", null)), ProgressTableShape.WITH_COMMIT_POSITIONS);
        assertThat(read.asMap()).isEqualTo(Map.of(new SourcePartition("topic", 0), 5L));
        assertThat(read.bySource()).containsOnlyKeys("topic");
        assertThat(read.commits()).isEqualTo(Map.of(new SourcePartition("postgresql:pg1", 0), "{\"a\":1}",
                new SourcePartition("maxwell", 1), "m"));
        assertThat(read.commitsByPartition()).isEqualTo(Map.of(0, Map.of("postgresql:pg1", "{\"a\":1}"),
                1, Map.of("maxwell", "m")));
        assertThat(read.tableShape()).isEqualTo(ProgressTableShape.WITH_COMMIT_POSITIONS);
        assertThat(read.toString()).doesNotContain("{\"a\":1}");
    }

    @Test
    void aCommitPositionIsRefusedWhenItCannotBeStoredNamingWhyWithoutItsText() {
        assertThat(new CommitPosition("postgresql:pg1", "x").commitSource()).isEqualTo("postgresql:pg1");
        assertThat(new CommitPosition("s".repeat(200), "é".repeat(32_766)).text()).hasSize(32_766); // 65,532 bytes
        assertThatThrownBy(() -> new CommitPosition(" ", "x")).hasMessageContaining("commit source is blank");
        assertThatThrownBy(() -> new CommitPosition(null, "x")).hasMessageContaining("commit source is null");
        assertThatThrownBy(() -> new CommitPosition("#run:x", "x")).hasMessageContaining("starts with '#'");
        assertThatThrownBy(() -> new CommitPosition("s".repeat(201), "x"))
                .hasMessageContaining("201 characters is too long").hasMessageNotContaining("sss");
        assertThatThrownBy(() -> new CommitPosition("é".repeat(124), "x")).hasMessageContaining("247 UTF-8 bytes");
        assertThatThrownBy(() -> new CommitPosition("pg", null)).hasMessageContaining("has no commit position");
        assertThatThrownBy(() -> new CommitPosition("pg", "é".repeat(32_767)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has 65534 UTF-8 bytes: at most 65533").hasMessageNotContaining("éé");
    }
}
