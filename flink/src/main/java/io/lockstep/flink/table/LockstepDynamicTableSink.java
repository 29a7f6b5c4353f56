package io.lockstep.flink.table;

import com.starrocks.connector.flink.table.data.DefaultStarRocksRowData;
import io.lockstep.flink.options.SinkTarget;
import io.lockstep.flink.options.TableSinkOptions;
import io.lockstep.flink.sink.v2.LockstepSinks;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * The table sink behind {@code 'connector' = 'starrocks'} and {@code 'connector' = 'doris'}: the query's rows become
 * JSON rows ({@link RowDataJsonEncoder}, {@link ChangelogRows}) and go through the single-table Sink V2 sink of the
 * table's {@code sink.semantic} ({@link LockstepSinks}).
 *
 * <p>Changelog: with a declared PRIMARY KEY the sink takes INSERT, UPDATE_AFTER and DELETE (plus UPDATE_BEFORE when
 * {@code sink.ignore.update-before} is false), so retracting queries (GROUP BY, joins) are accepted, and the rows are
 * keyed by the primary key before the sink so one key's changes stay in order; without one it takes inserts only
 * and the planner refuses an updating query.
 *
 * <p>Built and used by the planner on one thread.
 */
public final class LockstepDynamicTableSink implements DynamicTableSink {
    private final TableSinkOptions options;
    private final SinkTarget target;
    private final RowDataJsonEncoder encoder;
    private final RowType rowType;
    private final int[] primaryKey;

    /**
     * @param primaryKey positions of the declared primary key's columns (empty: none)
     */
    public LockstepDynamicTableSink(TableSinkOptions options, SinkTarget target,
                                    RowType rowType, int[] primaryKey,
                                    RowDataJsonEncoder encoder) {
        this.options = Objects.requireNonNull(options, "options");
        this.target = Objects.requireNonNull(target, "target");
        this.rowType = Objects.requireNonNull(rowType, "rowType");
        this.primaryKey = primaryKey.clone();
        this.encoder = Objects.requireNonNull(encoder, "encoder");
    }

    /** The column deletes are flagged in on a key table of this target. */
    static String deleteColumn(SinkTarget target) {
        return target == SinkTarget.DORIS ? "__DORIS_DELETE_SIGN__" : "__op";
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        if (primaryKey.length == 0) {
            return ChangelogMode.insertOnly();
        }
        ChangelogMode.Builder mode = ChangelogMode.newBuilder().addContainedKind(RowKind.INSERT)
                .addContainedKind(RowKind.UPDATE_AFTER).addContainedKind(RowKind.DELETE);
        if (!options.ignoreUpdateBefore()) {
            mode.addContainedKind(RowKind.UPDATE_BEFORE);
        }
        return mode.build();
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        String database = options.sinkOptions().getDatabaseName();
        String table = options.sinkOptions().getTableName();
        ChangelogRows changelog = new ChangelogRows(database, table, encoder,
                primaryKey.length == 0 ? null : deleteColumn(target), options.ignoreUpdateBefore());
        PrimaryKeySelector keySelector = primaryKey.length == 0 ? null : new PrimaryKeySelector(rowType, primaryKey);
        Integer parallelism = options.parallelism();
        return new DataStreamSinkProvider() {
            @Override
            public DataStreamSink<?> consumeDataStream(ProviderContext provider, DataStream<RowData> input) {
                DataStream<RowData> ordered = keySelector == null ? input : input.keyBy(keySelector);
                SingleOutputStreamOperator<DefaultStarRocksRowData> rows = ordered.flatMap(changelog)
                        .returns(TypeInformation.of(DefaultStarRocksRowData.class))
                        .name("rows of " + database + "." + table);
                provider.generateUid("rows").ifPresent(rows::uid);
                DataStreamSink<DefaultStarRocksRowData> sink = rows.sinkTo(
                        LockstepSinks.<DefaultStarRocksRowData>createSink(options.sinkOptions()))
                        .name("Lockstep " + target.optionValue() + " sink " + database + "." + table);
                provider.generateUid("sink").ifPresent(sink::uid);
                if (parallelism != null) {
                    rows.setParallelism(parallelism);
                    sink.setParallelism(parallelism);
                }
                return sink;
            }
        };
    }

    @Override
    public DynamicTableSink copy() {
        return new LockstepDynamicTableSink(options, target, rowType, primaryKey, encoder);
    }

    @Override
    public String asSummaryString() {
        return "Lockstep " + target.optionValue() + " sink (" + options.sinkOptions().getSemantic().optionValue() + ")";
    }
}
