package io.lockstep.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lockstep.core.server.Target;
import io.lockstep.flink.options.InvalidSinkOptionException;
import io.lockstep.flink.options.SinkSemantic;
import io.lockstep.flink.options.SinkTarget;
import io.lockstep.flink.options.TableSinkOptions;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The table sink's options: the DataStream names and checks, the SQL-only options, and what a table sink refuses. */
class TableSinkOptionsTest {
    private static Map<String, String> base() {
        Map<String, String> options = new HashMap<>();
        options.put("connector", "starrocks");
        options.put("load-url", "127.0.0.1:8030");
        options.put("database-name", "db");
        options.put("table-name", "t");
        options.put("username", "root");
        return options;
    }

    @Test
    void theSqlOptionsAreReadAndJsonRowsAreTheDefault() {
        Map<String, String> options = base();
        options.put("sink.parallelism", "3");
        options.put("sink.ignore.update-before", "true");
        options.put("sink.semantic", "exactly-once");

        TableSinkOptions parsed = TableSinkOptions.parse(options, SinkTarget.STARROCKS);

        assertThat(parsed.parallelism()).isEqualTo(3);
        assertThat(parsed.ignoreUpdateBefore()).isTrue();
        assertThat(parsed.sinkConfig().getSemantic()).isEqualTo(SinkSemantic.EXACTLY_ONCE);
        assertThat(parsed.sinkConfig().getStreamLoadProperties()).containsEntry("format", "json")
                .containsEntry("strip_outer_array", "true");
        assertThat(TableSinkOptions.parse(base(), SinkTarget.STARROCKS).ignoreUpdateBefore())
                .as("UPDATE_BEFORE rows count by default (docs/sql.md, Changelog)").isFalse();
        Map<String, String> csv = base();
        csv.put("sink.properties.FORMAT", "csv");
        assertThat(TableSinkOptions.parse(csv, SinkTarget.STARROCKS).sinkConfig().getStreamLoadProperties())
                .as("a named format gets no JSON headers").containsEntry("format", "csv")
                .doesNotContainKey("strip_outer_array");
    }

    @Test
    void dorisNamesAreAcceptedForTheDorisConnector() {
        Map<String, String> options = new HashMap<>(Map.of("connector", "doris", "fenodes", "127.0.0.1:8030",
                "table.identifier", "db.t", "username", "root", "sink.enable-2pc", "true"));

        TableSinkOptions parsed = TableSinkOptions.parse(options, SinkTarget.DORIS);

        assertThat(parsed.sinkConfig().getTarget()).isEqualTo(Target.DORIS);
        assertThat(parsed.sinkConfig().getTableName()).isEqualTo("t");
        assertThat(parsed.sinkConfig().getSemantic()).isEqualTo(SinkSemantic.EXACTLY_ONCE);
    }

    @Test
    void whatATableSinkCannotDoIsRefusedNamingTheOption() {
        Map<String, String> multi = base();
        multi.put("sink.version", "V2");
        multi.put("sink.transaction.multi-table.enabled", "true");
        assertThatThrownBy(() -> TableSinkOptions.parse(multi, SinkTarget.STARROCKS))
                .isInstanceOf(InvalidSinkOptionException.class)
                .hasMessageContaining("'sink.transaction.multi-table.enabled' = 'true'");
        Map<String, String> wildcard = base();
        wildcard.put("table-name", "*");
        assertThatThrownBy(() -> TableSinkOptions.parse(wildcard, SinkTarget.STARROCKS))
                .hasMessageContaining("'table-name' = '*'");
        Map<String, String> badParallelism = base();
        badParallelism.put("sink.parallelism", "0");
        assertThatThrownBy(() -> TableSinkOptions.parse(badParallelism, SinkTarget.STARROCKS))
                .hasMessageContaining("sink.parallelism");
        Map<String, String> otherTarget = base();
        otherTarget.put("sink.target", "doris");
        assertThatThrownBy(() -> TableSinkOptions.parse(otherTarget, SinkTarget.STARROCKS))
                .hasMessageContaining("contradicts 'connector' = 'starrocks'");
    }

    @Test
    void unknownOptionsGetTheClosestKeyOfEitherCatalogue() {
        Map<String, String> sqlTypo = base();
        sqlTypo.put("sink.ignore.update-befor", "true");
        assertThatThrownBy(() -> TableSinkOptions.parse(sqlTypo, SinkTarget.STARROCKS))
                .hasMessageContaining("did you mean 'sink.ignore.update-before'?");
        Map<String, String> streamTypo = base();
        streamTypo.put("sink.semantik", "exactly-once");
        assertThatThrownBy(() -> TableSinkOptions.parse(streamTypo, SinkTarget.STARROCKS))
                .hasMessageContaining("did you mean 'sink.semantic'?");
        Map<String, String> unsupported = base();
        unsupported.put("sink.buffer-flush.max-rows", "10");
        assertThatThrownBy(() -> TableSinkOptions.parse(unsupported, SinkTarget.STARROCKS))
                .hasMessageContaining("not supported by Lockstep");
    }

    @Test
    void sqlTablesTakeEachTargetsCompressionAndRefuseWhatIsNotImplemented() {
        Map<String, String> doris = new HashMap<>(Map.of("connector", "doris", "fenodes", "127.0.0.1:8030",
                "table.identifier", "db.t", "username", "root", "sink.properties.compress_type", "gz"));
        TableSinkOptions.parse(doris, SinkTarget.DORIS);
        doris.put("sink.properties.compress_type", "deflate");
        assertThatThrownBy(() -> TableSinkOptions.parse(doris, SinkTarget.DORIS))
                .isInstanceOf(InvalidSinkOptionException.class).hasMessage("Invalid sink option "
                        + "'sink.properties.compress_type' = 'deflate': compress_type = 'deflate' is not one Lockstep "
                        + "implements; expected one of 'gz', 'bz2', 'lz4'");
        Map<String, String> compression = base();
        compression.put("sink.properties.compression", "lz4_frame");
        TableSinkOptions.parse(compression, SinkTarget.STARROCKS);
        Map<String, String> format = base();
        format.put("sink.properties.format", "gzip");
        assertThatThrownBy(() -> TableSinkOptions.parse(format, SinkTarget.STARROCKS))
                .isInstanceOf(InvalidSinkOptionException.class).hasMessageStartingWith("Invalid sink option "
                        + "'sink.properties.format' = 'gzip': 'gzip' is StarRocks' header for a compressed CSV body");
    }
}
