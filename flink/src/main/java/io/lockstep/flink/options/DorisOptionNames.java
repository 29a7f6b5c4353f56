package io.lockstep.flink.options;

import static io.lockstep.flink.options.SinkOptionDefinitions.DATABASE_NAME;
import static io.lockstep.flink.options.SinkOptionDefinitions.ENABLE_2PC;
import static io.lockstep.flink.options.SinkOptionDefinitions.FENODES;
import static io.lockstep.flink.options.SinkOptionDefinitions.LOAD_URL;
import static io.lockstep.flink.options.SinkOptionDefinitions.SINK_SEMANTIC;
import static io.lockstep.flink.options.SinkOptionDefinitions.SINK_TARGET;
import static io.lockstep.flink.options.SinkOptionDefinitions.TABLE_IDENTIFIER;
import static io.lockstep.flink.options.SinkOptionDefinitions.TABLE_NAME;

import io.lockstep.core.server.Target;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Apache Doris Flink connector's option names that Lockstep accepts with {@code sink.target=doris}, rewritten to
 * the catalogue's own before validation (docs/protocol.md#what-the-doris-connector-does; apache/doris-flink-connector
 * {@code DorisConfigOptions.java}):
 * <ul>
 *   <li>{@code fenodes} ({@code host:port,host:port}) → {@code load-url} ({@code host:port;host:port});</li>
 *   <li>{@code table.identifier} ({@code db.table}) → {@code database-name} and {@code table-name};</li>
 *   <li>{@code sink.enable-2pc} ({@code true}/{@code false}) → {@code sink.semantic}
 *       ({@code exactly-once}/{@code at-least-once});</li>
 *   <li>{@code sink.label-prefix}, {@code username}, {@code password} have the same names in both.</li>
 * </ul>
 * Each rule refuses, with an {@link InvalidSinkOptionException} naming both options, a Doris name given together
 * with the canonical one when they disagree, and a Doris name without {@code sink.target=doris}. Stateless.
 */
public final class DorisOptionNames {
    private static final List<String> DORIS_ONLY = List.of(FENODES.key(), TABLE_IDENTIFIER.key(), ENABLE_2PC.key());

    private DorisOptionNames() {
    }

    /**
     * Rewrites the Doris names of a normalized option map (see {@link SinkOptionsValidator#normalize}).
     *
     * @return a copy holding the canonical keys instead of the Doris ones; unchanged when none is present
     * @throws InvalidSinkOptionException if a Doris name comes without {@code sink.target=doris}, is malformed, or
     *                                    contradicts the canonical option it stands for
     */
    public static Map<String, String> resolve(Map<String, String> options) {
        Map<String, String> out = new TreeMap<>(options);
        // the Doris connector's names are accepted for Doris only
        boolean dorisNames = SINK_TARGET.valueIn(options) == Target.DORIS;
        for (String key : DORIS_ONLY) {
            if (options.containsKey(key) && !dorisNames) {
                throw new InvalidSinkOptionException(key, "Sink option '" + key + "' is an Apache Doris connector "
                        + "option: set 'sink.target' = 'doris' to write to Doris" + canonicalHint(key));
            }
        }
        if (options.containsKey(FENODES.key())) {
            String fenodes = FENODES.parse(options.get(FENODES.key()));
            if (options.containsKey(LOAD_URL.key())) {
                throw new InvalidSinkOptionException(FENODES.key(), "Sink options 'fenodes' and 'load-url' are both "
                        + "set: they name the same FE addresses; keep one of them");
            }
            out.remove(FENODES.key());
            out.put(LOAD_URL.key(), fenodes.replace(',', ';'));
        }
        if (options.containsKey(TABLE_IDENTIFIER.key())) {
            String identifier = TABLE_IDENTIFIER.parse(options.get(TABLE_IDENTIFIER.key())).trim();
            if (options.containsKey(DATABASE_NAME.key()) || options.containsKey(TABLE_NAME.key())) {
                throw new InvalidSinkOptionException(TABLE_IDENTIFIER.key(), "Sink option 'table.identifier' = '"
                        + identifier + "' is set together with 'database-name' or 'table-name': they name the same "
                        + "target; keep 'table.identifier' or the two others");
            }
            int dot = identifier.indexOf('.');
            out.remove(TABLE_IDENTIFIER.key());
            out.put(DATABASE_NAME.key(), identifier.substring(0, dot));
            out.put(TABLE_NAME.key(), identifier.substring(dot + 1));
        }
        if (options.containsKey(ENABLE_2PC.key())) {
            boolean twoPhase = ENABLE_2PC.parse(options.get(ENABLE_2PC.key()));
            SinkSemantic implied = twoPhase ? SinkSemantic.EXACTLY_ONCE : SinkSemantic.AT_LEAST_ONCE;
            if (options.containsKey(SINK_SEMANTIC.key())) {
                SinkSemantic given = SINK_SEMANTIC.valueIn(options);
                if (given != implied) {
                    throw new InvalidSinkOptionException(ENABLE_2PC.key(), "Sink option 'sink.enable-2pc' = '"
                            + twoPhase + "' contradicts 'sink.semantic' = '" + given.optionValue() + "': 2PC means "
                            + "exactly-once; keep one of the two options");
                }
            }
            out.remove(ENABLE_2PC.key());
            out.put(SINK_SEMANTIC.key(), implied.optionValue());
        }
        return out;
    }

    private static String canonicalHint(String key) {
        if (key.equals(FENODES.key())) {
            return ", or use 'load-url' for StarRocks";
        }
        if (key.equals(TABLE_IDENTIFIER.key())) {
            return ", or use 'database-name' and 'table-name' for StarRocks";
        }
        return ", or use 'sink.semantic' for StarRocks";
    }
}
