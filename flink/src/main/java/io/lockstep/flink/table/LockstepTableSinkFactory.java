package io.lockstep.flink.table;

import io.lockstep.flink.options.SinkTarget;
import io.lockstep.flink.options.TableSinkOptions;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.api.config.TableConfigOptions;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.types.logical.RowType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the two SQL factories share ({@link StarRocksTableSinkFactory}, {@link DorisTableSinkFactory}): the options
 * are checked by {@link TableSinkOptions} (the DataStream sink's names and validation; unknown keys refused with a
 * suggestion), not by Flink's {@code FactoryUtil}, so {@link #requiredOptions()} and {@link #optionalOptions()} are
 * empty; docs/sql.md lists the options.
 */
abstract class LockstepTableSinkFactory implements DynamicTableSinkFactory {
    private final SinkTarget target;

    LockstepTableSinkFactory(SinkTarget target) {
        this.target = target;
    }

    @Override
    public String factoryIdentifier() {
        return target.optionValue();
    }

    private static final String COLUMNS = "sink.properties.columns";
    private static final Logger LOG = LoggerFactory.getLogger(LockstepTableSinkFactory.class);

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of();
    }

    /**
     * @throws io.lockstep.flink.options.InvalidSinkOptionException naming the first bad option
     * @throws IllegalArgumentException naming a column whose type cannot be loaded
     */
    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        int[] primaryKey = context.getPrimaryKeyIndexes();
        Map<String, String> given = new HashMap<>(context.getCatalogTable().getOptions());
        if (target.target().deleteColumnIsHidden() && primaryKey.length > 0) {
            // Doris reads the delete flag only from a hidden column it is told about
            given.putIfAbsent("sink.properties.hidden_columns", LockstepDynamicTableSink.deleteColumn(target));
        } else if (primaryKey.length > 0) {
            declareDeleteColumn(given, LockstepDynamicTableSink.deleteColumn(target));
        }
        TableSinkOptions options = TableSinkOptions.parse(given, target);
        RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
        String zone = context.getConfiguration().get(TableConfigOptions.LOCAL_TIME_ZONE);
        ZoneId zoneId = TableConfigOptions.LOCAL_TIME_ZONE.defaultValue().equals(zone) ? ZoneId.systemDefault()
                : ZoneId.of(zone);
        return new LockstepDynamicTableSink(options, target, rowType, primaryKey,
                new RowDataJsonEncoder(rowType, zoneId));
    }

    /**
     * A key table's rows carry StarRocks' delete flag {@code __op}; when the table declares {@code columns} (a partial
     * update, or a column mapping) without it, StarRocks would not read the flag and a delete would load as an upsert.
     * The official connector appends it to the declared columns, and so does this sink: one INFO line says so.
     */
    private static void declareDeleteColumn(Map<String, String> given, String deleteColumn) {
        String columns = given.get(COLUMNS);
        if (columns == null || columns.isBlank()) {
            return;
        }
        for (String item : columns.split(",")) {
            if (item.split("=", 2)[0].strip().equalsIgnoreCase(deleteColumn)) {
                return;
            }
        }
        given.put(COLUMNS, columns.strip() + "," + deleteColumn);
        LOG.info("{} = '{}' of a table with a primary key: appending {} so that deletes are read as deletes",
                COLUMNS, columns, deleteColumn);
    }
}
