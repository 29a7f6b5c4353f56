package io.lockstep.flink.options;

import io.lockstep.core.format.JsonLoadFormat;
import io.lockstep.core.server.Target;
import io.lockstep.flink.config.SinkConfig;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The options of a Flink SQL table sink ({@code CREATE TABLE ... WITH ('connector' = 'starrocks' | 'doris', ...)}):
 * every DataStream sink option under the same name, checked by the same {@link SinkOptionsValidator}, plus the options
 * that only mean something to a table sink ({@link #SQL_ONLY}). docs/sql.md lists them.
 *
 * <p>Unknown keys are refused with the closest known key ("did you mean"), over both catalogues. A table sink writes
 * one table: {@code database-name} and {@code table-name} (Doris: {@code table.identifier}) must name it, and
 * multi-table mode is refused (it needs source transactions, which SQL rows do not carry).
 *
 * @param sinkConfig        the DataStream sink configuration (with {@code sink.target} set, JSON rows by default)
 * @param parallelism       {@code sink.parallelism}, or null for the planner's choice
 * @param ignoreUpdateBefore {@code sink.ignore.update-before}
 */
public record TableSinkOptions(SinkConfig sinkConfig, Integer parallelism, boolean ignoreUpdateBefore)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The key Flink puts the factory identifier under; not a sink option. */
    public static final String CONNECTOR = "connector";

    /** {@code sink.parallelism}: the sink's parallelism; the planner's when absent. */
    public static final SinkOption<Integer> SINK_PARALLELISM = SinkOption.intOption("sink.parallelism", 1, 32_768)
            .description("Parallelism of the table sink (SQL only); by default the parallelism of its input.");

    /**
     * {@code sink.ignore.update-before} (the StarRocks connector's name): false (default) loads an UPDATE_BEFORE that
     * is not followed by its key's UPDATE_AFTER as a delete and folds one that is into the upsert; true drops every
     * UPDATE_BEFORE (keys a query retracts that way stay; the sink logs a warning).
     */
    public static final SinkOption<Boolean> IGNORE_UPDATE_BEFORE = SinkOption
            .booleanOption("sink.ignore.update-before").defaultValue(false)
            .description("With a PRIMARY KEY (SQL only): false loads an UPDATE_BEFORE that its key's UPDATE_AFTER "
                    + "does not follow as a delete (the table ends equal to the query's result); true drops "
                    + "UPDATE_BEFORE rows, leaving keys the query retracted that way (logged as a warning).");

    /** The options only a table sink reads. */
    public static final List<SinkOption<?>> SQL_ONLY = List.of(SINK_PARALLELISM, IGNORE_UPDATE_BEFORE);

    /**
     * Parses a table's {@code WITH} options.
     *
     * @param tableOptions the options as the catalog holds them ({@code connector} included or not)
     * @param target       the factory's server family
     * @throws InvalidSinkOptionException naming the first bad option: unknown (with a suggestion), invalid, a
     *                                    multi-table or {@code *} setting, or one the DataStream sink refuses
     */
    public static TableSinkOptions parse(Map<String, String> tableOptions, SinkTarget target) {
        Map<String, String> rest = new TreeMap<>(tableOptions);
        rest.remove(CONNECTOR);
        Map<String, String> sqlOnly = new TreeMap<>();
        for (SinkOption<?> option : SQL_ONLY) {
            String value = rest.remove(option.key());
            if (value != null) {
                sqlOnly.put(option.key(), value);
            }
        }
        for (String key : rest.keySet()) {
            checkKnown(key);
        }
        String given = rest.get(SinkOptionDefinitions.SINK_TARGET.key());
        if (given != null && Target.fromOptionValue(given) != target.target()) {
            throw new InvalidSinkOptionException(SinkOptionDefinitions.SINK_TARGET.key(), "Table option "
                    + "'sink.target' = '" + given + "' contradicts 'connector' = '" + target.optionValue()
                    + "'; remove it");
        }
        rest.put(SinkOptionDefinitions.SINK_TARGET.key(), target.optionValue());
        // the SQL path encodes rows as JSON objects (RowDataJsonEncoder): loaded as JSON unless a format is named
        // (csv writes each object as one record of the table's columns)
        if (rest.keySet().stream().map(SinkOptionDefinitions::normalizeKey)
                .noneMatch(SinkOptionDefinitions.STREAM_LOAD_FORMAT.key()::equals)) {
            JsonLoadFormat.INSTANCE.headers().forEach((name, value) -> rest.putIfAbsent("sink.properties." + name,
                    value));
        }
        SinkConfig options = SinkConfig.fromOptions(rest);
        if (options.isMultiTableTransactionEnabled()) {
            throw new InvalidSinkOptionException(SinkOptionDefinitions.MULTI_TABLE_ENABLED.key(), "Table option "
                    + "'sink.transaction.multi-table.enabled' = 'true' is for DataStream jobs whose rows carry source "
                    + "transactions; a table sink writes one table: remove it");
        }
        for (String key : List.of(SinkOptionDefinitions.DATABASE_NAME.key(), SinkOptionDefinitions.TABLE_NAME.key())) {
            String value = key.equals(SinkOptionDefinitions.DATABASE_NAME.key()) ? options.getDatabaseName()
                    : options.getTableName();
            if (SinkOptionDefinitions.WILDCARD.equals(value)) {
                throw new InvalidSinkOptionException(key, "Table option '" + key + "' = '*': a table sink writes "
                        + "one table; name it");
            }
        }
        return new TableSinkOptions(options, SINK_PARALLELISM.valueIn(sqlOnly),
                IGNORE_UPDATE_BEFORE.valueIn(sqlOnly));
    }

    private static void checkKnown(String key) {
        String normalized = SinkOptionDefinitions.normalizeKey(key);
        if (normalized.startsWith(SinkOptionDefinitions.SINK_PROPERTIES_PREFIX)
                || SinkOptionDefinitions.find(normalized).isPresent()
                || SinkOptionDefinitions.UNSUPPORTED_CONNECTOR_OPTIONS.containsKey(normalized)) {
            return; // the DataStream validator accepts it or explains why not
        }
        List<String> known = new ArrayList<>();
        SinkOptionDefinitions.ALL.forEach(o -> known.add(o.key()));
        SQL_ONLY.forEach(o -> known.add(o.key()));
        known.add(CONNECTOR);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int distance = SinkOptionsValidator.editDistance(normalized.toLowerCase(Locale.ROOT), candidate);
            if (distance < bestDistance) {
                bestDistance = distance;
                best = candidate;
            }
        }
        throw new InvalidSinkOptionException(key, "Unknown table option '" + key + "'"
                + (bestDistance <= 3 ? "; did you mean '" + best + "'?" : ".")
                + " Known options are listed in docs/sql.md and docs/options.md; stream load headers go under "
                + "'sink.properties.<header>'");
    }
}
