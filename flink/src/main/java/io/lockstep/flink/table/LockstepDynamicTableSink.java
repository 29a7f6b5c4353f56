package io.lockstep.flink.table;

import io.lockstep.core.server.Target;
import io.lockstep.flink.options.SinkTarget;
import io.lockstep.flink.options.TableSinkOptions;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.sink.v2.LockstepSinks;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.transformations.PhysicalTransformation;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table sink behind {@code 'connector' = 'starrocks'} and {@code 'connector' = 'doris'}: the query's rows become
 * JSON rows ({@link RowDataJsonEncoder}, {@link ChangelogRows}) and go through the single-table Sink V2 sink of the
 * table's {@code sink.semantic} ({@link LockstepSinks}).
 *
 * <p>Changelog: with a declared PRIMARY KEY the sink is an upsert sink (INSERT, UPDATE_AFTER, DELETE; see
 * {@link #getChangelogMode}), the UPDATE_BEFORE rows the planner still sends are folded or loaded as deletes
 * ({@link ChangelogRows}, {@link ChangelogRowsOperator}), and the rows are keyed by the primary key before the sink so
 * one key's changes stay in order; the table ends equal to the query's result. Without one it takes inserts only and
 * the planner refuses an updating query.
 *
 * <p>Built and used by the planner on one thread.
 */
public final class LockstepDynamicTableSink implements DynamicTableSink {
    private static final Logger LOG = LoggerFactory.getLogger(LockstepDynamicTableSink.class);
    private static final TypeInformation<Tuple2<String, LoadRow>> KEYED_ROW =
            Types.TUPLE(Types.STRING, TypeInformation.of(LoadRow.class));
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

    /** The column deletes are flagged in on a key table of this target ({@link Target#deleteColumn()}). */
    static String deleteColumn(SinkTarget target) {
        return target.target().deleteColumn();
    }

    /**
     * With a primary key: INSERT, UPDATE_AFTER and DELETE (upsert), whatever {@code sink.ignore.update-before} says, so
     * the planner sends no UPDATE_BEFORE where its operators can avoid it and adds its upsert materializer where the
     * query's upsert key differs from the table's key. Where an operator cannot avoid it (a filter on a value that
     * changes, e.g. {@code WHERE cnt = 1} after a GROUP BY, or a join whose update finds no partner), the planner still
     * sends UPDATE_BEFORE rows, and {@link ChangelogRows} turns each into a delete unless its UPDATE_AFTER follows.
     * Without a primary key: inserts only.
     */
    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        if (primaryKey.length == 0) {
            return ChangelogMode.insertOnly();
        }
        return ChangelogMode.newBuilder().addContainedKind(RowKind.INSERT).addContainedKind(RowKind.UPDATE_AFTER)
                .addContainedKind(RowKind.DELETE).build();
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        String database = options.sinkConfig().getDatabaseName();
        String table = options.sinkConfig().getTableName();
        boolean keyed = primaryKey.length > 0;
        if (keyed && options.ignoreUpdateBefore()) {
            LOG.warn("table sink {}.{}: 'sink.ignore.update-before' = 'true' drops UPDATE_BEFORE rows, so a key whose "
                    + "UPDATE_AFTER the query filters out stays in the table with its old value (docs/sql.md, "
                    + "Changelog); remove the option to load the query's result", database, table);
        }
        ChangelogRows changelog = new ChangelogRows(database, table, encoder, keyed ? deleteColumn(target) : null,
                keyed ? new PrimaryKeySelector(rowType, primaryKey) : null, options.ignoreUpdateBefore());
        Integer parallelism = options.parallelism();
        return new DataStreamSinkProvider() {
            @Override
            public DataStreamSink<?> consumeDataStream(ProviderContext provider, DataStream<RowData> input) {
                // forward from the query's last operator (same parallelism: chained), so an UPDATE_BEFORE and its
                // UPDATE_AFTER reach the fold back to back
                SingleOutputStreamOperator<Tuple2<String, LoadRow>> folded = input
                        .transform("rows of " + database + "." + table, KEYED_ROW, new ChangelogRowsOperator(changelog))
                        .setParallelism(input.getParallelism());
                // an operator starts a chain by default on Flink 1.20: chain it to the query's last operator
                ((PhysicalTransformation<?>) folded.getTransformation()).setChainingStrategy(ChainingStrategy.ALWAYS);
                provider.generateUid("rows").ifPresent(folded::uid);
                DataStream<Tuple2<String, LoadRow>> ordered = keyed
                        ? folded.keyBy(row -> row.f0, Types.STRING) : folded;
                SingleOutputStreamOperator<LoadRow> rows = ordered.map(row -> row.f1)
                        .returns(TypeInformation.of(LoadRow.class))
                        .name("sink rows of " + database + "." + table);
                provider.generateUid("sink-rows").ifPresent(rows::uid);
                DataStreamSink<LoadRow> sink = rows.sinkTo(
                        LockstepSinks.<LoadRow>createSink(options.sinkConfig()))
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
        return "Lockstep " + target.optionValue() + " sink (" + options.sinkConfig().getSemantic().optionValue() + ")";
    }
}
