package io.lockstep.app.event;

import io.lockstep.app.assemble.AssemblerOptions;
import io.lockstep.app.assemble.DebeziumTransactionAssembler;
import io.lockstep.app.assemble.MaxwellTransactionAssembler;
import io.lockstep.app.assemble.TransactionAssembler;
import io.lockstep.app.route.TableRouter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The registry of input formats: each constant carries its decoder and its assembler, so this enum is the one place
 * where an input format is chosen (docs/input-formats.md). A name that is no constant is refused by
 * {@link #parse(String)}, never read as another format.
 */
public enum CdcFormat {
    /** Maxwell's daemon JSON ({@code xid}, {@code commit: true} on the last row). */
    MAXWELL(MaxwellDecoder::new, MaxwellTransactionAssembler::new),
    /** Debezium JSON with transaction metadata, BEGIN/data/END routed into one topic. */
    DEBEZIUM(DebeziumDecoder::new, DebeziumTransactionAssembler::new);

    private final Function<Map<String, List<String>>, SourceEventDecoder> decoder;
    private final BiFunction<TableRouter, AssemblerOptions, TransactionAssembler> assembler;

    CdcFormat(Function<Map<String, List<String>>, SourceEventDecoder> decoder,
            BiFunction<TableRouter, AssemblerOptions, TransactionAssembler> assembler) {
        this.decoder = decoder;
        this.assembler = assembler;
    }

    /**
     * Reads a format name as {@code --format} takes it.
     *
     * @param name a format name, any case ({@code debezium}, {@code MAXWELL}, ...)
     * @return the format of that name
     * @throws IllegalArgumentException for any other name, naming the value and the accepted ones (in picocli's
     *     words for enum options: {@code expected one of [MAXWELL, DEBEZIUM] (case-insensitive) but was 'canal'})
     */
    public static CdcFormat parse(String name) {
        Objects.requireNonNull(name, "name");
        for (CdcFormat format : values()) {
            if (format.name().equalsIgnoreCase(name.trim())) {
                return format;
            }
        }
        throw new IllegalArgumentException("expected one of " + Arrays.toString(values())
                + " (case-insensitive) but was '" + name + "'");
    }

    /** @return the name as {@code --format} takes it and messages print it, e.g. {@code debezium} */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param primaryKeyColumns key columns per source table {@code db.table}, used to detect key-changing
     *     updates when the messages do not name the key; may be empty
     * @return a new decoder for this format
     */
    public SourceEventDecoder decoder(Map<String, List<String>> primaryKeyColumns) {
        return decoder.apply(primaryKeyColumns);
    }

    /**
     * @param router maps source tables to target tables
     * @param options bounds and error handling
     * @return a new assembler for this format
     */
    public TransactionAssembler assembler(TableRouter router, AssemblerOptions options) {
        return assembler.apply(router, options);
    }
}
