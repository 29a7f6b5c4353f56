package io.lockstep.core.server;

import io.lockstep.core.client.DorisStreamLoader;
import io.lockstep.core.client.DorisTransactionClient;
import io.lockstep.core.client.StarRocksStreamLoader;
import io.lockstep.core.client.StarRocksTransactionClient;
import io.lockstep.core.client.StreamLoader;
import io.lockstep.core.client.TransactionClient;
import io.lockstep.core.client.TransactionClientConfig;
import io.lockstep.core.engine.DeliverySemantic;
import io.lockstep.core.engine.LoadMethod;
import io.lockstep.core.format.LoadFormat;
import io.lockstep.core.label.ExactlyOnceLabelScheme;
import io.lockstep.core.metrics.LoadMetrics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The server family Lockstep loads into, chosen once from the option value ({@link #fromOptionValue}) and asked for
 * everything that differs between the two, so no caller compares targets:
 * <ul>
 *   <li>{@link #STARROCKS}: transaction stream load (begin, loads, prepare, commit; multi-table transactions), one
 *       exactly-once label per table and checkpoint (docs/protocol.md#starrocks-transaction-stream-load);</li>
 *   <li>{@link #DORIS}: Apache Doris stream load, exactly-once by two-phase commit with one pre-committed
 *       transaction per table and flush, at-least-once by plain stream loads; no multi-table transaction over HTTP
 *       (docs/doris.md, docs/protocol.md#doris-endpoints-redirects-and-headers).</li>
 * </ul>
 * Immutable and thread-safe.
 */
public enum Target {
    STARROCKS("starrocks", "StarRocks", "__op") {
        @Override
        public TransactionClient newTransactionClient(TransactionClientConfig config,
                LoadMetrics metrics) {
            return new StarRocksTransactionClient(config, metrics);
        }

        @Override
        public StreamLoader newStreamLoader(TransactionClientConfig config,
                LoadMetrics metrics) {
            return new StarRocksStreamLoader(config, metrics);
        }
    },
    DORIS("doris", "Doris", "__DORIS_DELETE_SIGN__") {
        @Override
        public TransactionClient newTransactionClient(TransactionClientConfig config,
                LoadMetrics metrics) {
            return new DorisTransactionClient(config, metrics);
        }

        @Override
        public StreamLoader newStreamLoader(TransactionClientConfig config,
                LoadMetrics metrics) {
            return new DorisStreamLoader(config, metrics);
        }
    };

    private final String optionValue;
    private final String displayName;
    private final String deleteColumn;

    Target(String optionValue, String displayName, String deleteColumn) {
        this.optionValue = optionValue;
        this.displayName = displayName;
        this.deleteColumn = deleteColumn;
    }

    /**
     * The one lookup from an option or command-line value to a target.
     *
     * @param text {@code starrocks} or {@code doris}, case-insensitive, surrounding blanks ignored
     * @return the target
     * @throws IllegalArgumentException naming the accepted values when {@code text} is none of them (or null)
     */
    public static Target fromOptionValue(String text) {
        String wanted = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (Target target : values()) {
            if (target.optionValue.equals(wanted)) {
                return target;
            }
        }
        throw new IllegalArgumentException("expected one of 'starrocks', 'doris'");
    }

    /** @return the value as written in options and on the command line, e.g. {@code doris} */
    public String optionValue() {
        return optionValue;
    }

    /** @return the product name for messages, e.g. {@code Doris} */
    public String displayName() {
        return displayName;
    }

    /**
     * A new transaction client of this dialect ({@link StarRocksTransactionClient}, {@link DorisTransactionClient}).
     * The caller closes it.
     */
    public abstract TransactionClient newTransactionClient(TransactionClientConfig config,
            LoadMetrics metrics);

    /**
     * A new classic stream loader of this dialect, for {@link LoadMethod#CLASSIC} ({@link StarRocksStreamLoader},
     * {@link DorisStreamLoader}). The caller closes it.
     */
    public abstract StreamLoader newStreamLoader(TransactionClientConfig config,
            LoadMetrics metrics);

    /**
     * How the engine loads: StarRocks always by transaction stream load; Doris exactly-once by two-phase stream load
     * (one pre-committed transaction per table and flush), Doris at-least-once by plain stream load (one committing
     * load per table and flush, label dedup on retries). Multi-table mode: {@link LoadMethod#TRANSACTION}.
     *
     * @param multiTable whether the sink runs multi-table transactions
     * @param semantic   the delivery semantic
     */
    public LoadMethod loadMethod(boolean multiTable, DeliverySemantic semantic) {
        if (this == STARROCKS || multiTable) {
            return LoadMethod.TRANSACTION;
        }
        return semantic == DeliverySemantic.EXACTLY_ONCE ? LoadMethod.TWO_PHASE_STREAM_LOAD : LoadMethod.CLASSIC;
    }

    /** How exactly-once labels are shaped: one per flush on Doris (one load per transaction), else per checkpoint. */
    public ExactlyOnceLabelScheme labelScheme() {
        return this == DORIS ? ExactlyOnceLabelScheme.ONE_PER_FLUSH : ExactlyOnceLabelScheme.ONE_PER_CHECKPOINT;
    }

    /**
     * The headers of one load from a table's effective stream load headers: StarRocks sends {@code timeout} with the
     * transaction's begin, so its loads do not repeat it; Doris has no begin, so its loads carry it.
     *
     * @param headers header name (lower case) to value
     * @return a new, modifiable map in {@code headers}' order
     */
    public Map<String, String> loadHeaders(Map<String, String> headers) {
        Map<String, String> copy = new LinkedHashMap<>(headers);
        if (this == STARROCKS) {
            copy.remove("timeout");
        }
        return copy;
    }

    /**
     * The load format's headers only this target reads: on StarRocks the format's {@link LoadFormat#starRocksHeaders()}
     * (for JSON {@code ignore_json_size: true}, the StarRocks connector's default,
     * docs/protocol.md#what-the-official-starrocks-connector-does); on Doris the format's
     * {@link LoadFormat#dorisHeaders()} (CSV: {@code line_delimiter}).
     *
     * @param format the load format of the loads
     * @return header name to value, read-only
     */
    public Map<String, String> formatHeaders(LoadFormat format) {
        return this == STARROCKS ? format.starRocksHeaders() : format.dorisHeaders();
    }

    /**
     * @return stream load headers this target's sink sets itself and a user must not give: for Doris
     *     {@code two_phase_commit} and {@code txn_operation} (2PC follows the semantic) and {@code group_commit} (it
     *     would drop the labels), docs/protocol.md#doris-endpoints-redirects-and-headers; none for StarRocks beyond
     *     the headers every sink reserves
     */
    public List<String> headersSetBySink() {
        return this == DORIS ? List.of("two_phase_commit", "txn_operation", "group_commit") : List.of();
    }

    /**
     * @return whether the FE answers SQL over HTTP ({@code POST /api/v1/catalogs/default_catalog/databases/{db}/sql},
     *     StarRocks docs {@code docs/en/sql-reference/http_sql_api.md}; {@code StarRocksSqlClient}); Doris has no
     *     such endpoint
     */
    public boolean hasHttpSqlApi() {
        return this == STARROCKS;
    }

    /** @return whether one transaction can span several tables over HTTP (StarRocks yes, Doris no) */
    public boolean hasMultiTableTransactions() {
        return this == STARROCKS;
    }

    /**
     * @return the column a delete is flagged in on a key table: StarRocks' {@code __op}, Doris' hidden delete-sign
     *     column {@code __DORIS_DELETE_SIGN__}
     */
    public String deleteColumn() {
        return deleteColumn;
    }

    /**
     * @return whether the delete column is a hidden column the load must name in {@code hidden_columns} (Doris), rather
     *     than one the server always reads (StarRocks' {@code __op})
     */
    public boolean deleteColumnIsHidden() {
        return this == DORIS;
    }
}
