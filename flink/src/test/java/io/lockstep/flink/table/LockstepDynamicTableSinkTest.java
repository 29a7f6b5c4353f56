package io.lockstep.flink.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.lockstep.flink.options.SinkTarget;
import io.lockstep.flink.options.TableSinkOptions;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/**
 * The changelog mode the table sink declares: upsert (no UPDATE_BEFORE) with a primary key whatever
 * {@code sink.ignore.update-before} says, so the planner keeps its upsert materializer where the query's upsert key
 * differs from the table's key; inserts only without one.
 */
class LockstepDynamicTableSinkTest {
    private static final RowType TYPE = (RowType) DataTypes.ROW(DataTypes.FIELD("id", DataTypes.BIGINT()),
            DataTypes.FIELD("v", DataTypes.STRING())).getLogicalType();

    private static LockstepDynamicTableSink sink(int[] primaryKey, String ignoreUpdateBefore) {
        Map<String, String> options = new HashMap<>(Map.of("connector", "starrocks", "load-url", "127.0.0.1:8030",
                "database-name", "db", "table-name", "t", "username", "root"));
        if (ignoreUpdateBefore != null) {
            options.put("sink.ignore.update-before", ignoreUpdateBefore);
        }
        return new LockstepDynamicTableSink(TableSinkOptions.parse(options, SinkTarget.STARROCKS),
                SinkTarget.STARROCKS, TYPE, primaryKey, new RowDataJsonEncoder(TYPE, ZoneId.of("UTC")));
    }

    @Test
    void aKeyTableIsAnUpsertSinkWhateverTheUpdateBeforeOptionSays() {
        ChangelogMode upsert = ChangelogMode.newBuilder().addContainedKind(RowKind.INSERT)
                .addContainedKind(RowKind.UPDATE_AFTER).addContainedKind(RowKind.DELETE).build();
        for (String ignore : new String[] {null, "false", "true"}) {
            assertThat(sink(new int[] {0}, ignore).getChangelogMode(ChangelogMode.all())).as(ignore)
                    .isEqualTo(upsert);
        }
    }

    @Test
    void aTableWithoutKeyTakesInsertsOnly() {
        assertThat(sink(new int[0], null).getChangelogMode(ChangelogMode.all())).isEqualTo(ChangelogMode.insertOnly());
    }
}
