package io.lockstep.app.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.app.event.CdcFormat;
import io.lockstep.app.event.SchemaChangeMode;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

/** The seed of committed source positions that {@code lockstep run} hands the assembler. */
class AssemblerOptionsSeedTest {

    private static final String TEXT = "{\"kind\":\"postgres-lsn\",\"lsn\":3000,\"txId\":\"503\",\"commitTimeMs\":5}";

    @Test
    void theSeedIsACopyThatTravelsWithTheOptions() throws Exception {
        Map<String, String> sources = new HashMap<>(Map.of("postgresql:pg1", TEXT));
        Map<Integer, Map<String, String>> seed = new HashMap<>(Map.of(0, sources));

        AssemblerOptions options = AssemblerOptions.defaults().withCommittedPositions(seed)
                .withSchemaChangeMode(SchemaChangeMode.IGNORE).withInputResumes(true);
        sources.put("mysql:db1", "changed after");
        seed.put(1, Map.of());

        assertThat(options.committedPositions()).isEqualTo(Map.of(0, Map.of("postgresql:pg1", TEXT)));
        AssemblerOptions shipped = InstantiationUtil.clone(options);
        assertThat(shipped.committedPositions()).isEqualTo(options.committedPositions());
        assertThat(AssemblerOptions.defaults().committedPositions()).isEmpty();
    }

    @Test
    void theStartLineNamesThePositionEachFormatDeduplicatesBy() {
        assertThat(CommittedSourcePositions.deduplicatesBy(CdcFormat.DEBEZIUM))
                .startsWith("source commit position (PostgreSQL commit LSN; MySQL GTID set, else binlog file and "
                        + "position)").endsWith("else Kafka offset");
        assertThat(CommittedSourcePositions.deduplicatesBy(CdcFormat.MAXWELL))
                .contains("output_gtid_position", "output_binlog_position").endsWith("else Kafka offset");
    }
}
