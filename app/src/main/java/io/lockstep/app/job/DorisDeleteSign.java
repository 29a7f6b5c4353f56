package io.lockstep.app.job;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lockstep.flink.row.LoadRow;
import io.lockstep.flink.row.SinkInput;
import org.apache.flink.api.common.functions.MapFunction;

/**
 * The pipeline step that turns the decoders' delete marking into Apache Doris': the decoders mark a row with
 * {@code "__op": 1} (delete) as StarRocks PRIMARY KEY tables read it (StarRocks docs, "Load to Primary Key tables");
 * Doris UNIQUE KEY tables read {@code __DORIS_DELETE_SIGN__} instead
 * (docs/protocol.md#doris-endpoints-redirects-and-headers, {@code hidden_columns}; 1 deletes the key). Each row leaves
 * with {@code "__DORIS_DELETE_SIGN__": 1} for a delete and {@code 0} otherwise, and without {@code __op}; the other
 * fields and their exact text (decimals, order) are kept, as are the row's table, source partition and transaction end.
 *
 * <p>{@link LockstepPipeline} inserts it before the sink when the target is Doris; the sink must send
 * {@code hidden_columns: __DORIS_DELETE_SIGN__} ({@link LockstepPipeline#sinkOptions}) so Doris reads the column.
 * The sign is written on upserts too (as the Doris connector's CDC serializer does), so a row never depends on
 * the hidden column's default. Control marks ({@link io.lockstep.flink.row.ControlMark}) are not rows: they pass
 * unchanged.
 *
 * <p>Stateless and thread-safe (Jackson's mapper is thread-safe once configured).
 */
public final class DorisDeleteSign implements MapFunction<SinkInput, SinkInput> {
    private static final long serialVersionUID = 1L;

    /** The column Doris UNIQUE KEY tables read the delete flag from. */
    public static final String DELETE_SIGN_COLUMN = "__DORIS_DELETE_SIGN__";
    /** The column the decoders mark deletes with (StarRocks' operation column). */
    public static final String OP_COLUMN = "__op";

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    /**
     * @param input a sink row whose {@code row} is one JSON object, or a control mark
     * @return a new row for the same table, partition and transaction end, with the Doris delete sign; a control
     *     mark, or a row without text (an end-only row), unchanged
     * @throws IllegalArgumentException naming the table when the row is not a JSON object or its {@code __op} is
     *     not 0 or 1 (the row content is not quoted)
     */
    @Override
    public SinkInput map(SinkInput input) {
        if (!(input instanceof LoadRow row) || row.getRow() == null) {
            return input; // a control mark, or an end-only row (a rebuilt unit without rows): nothing to convert
        }
        LoadRow mapped = new LoadRow(row.getUniqueKey(), row.getDatabase(),
                row.getTable(), toDoris(row.getRow(), row.getDatabase() + "." + row.getTable()));
        mapped.setSourcePartition(row.getSourcePartition());
        mapped.setTransactionEnd(row.isTransactionEnd());
        mapped.setSource(row.getSource());
        mapped.setSourcePosition(row.getSourcePosition());
        return mapped;
    }

    /**
     * @param json one JSON object; {@code "__op": 1} marks a delete, {@code 0} or no {@code __op} an upsert
     * @param table the row's table, for the error message
     * @return the object without {@code __op} and with {@code "__DORIS_DELETE_SIGN__"} 1 (delete) or 0 (upsert)
     * @throws IllegalArgumentException naming {@code table} when the text is not a JSON object or {@code __op} is
     *     neither 0 nor 1
     */
    public static String toDoris(String json, String table) {
        JsonNode node;
        try {
            node = json == null ? null : MAPPER.readTree(json);
        } catch (JsonProcessingException e) { // Jackson's message quotes the input: not passed on
            JsonLocation at = e.getLocation();
            throw new IllegalArgumentException("a row for table " + table + " is not valid JSON"
                    + (at == null ? "" : " (line " + at.getLineNr() + " column " + at.getColumnNr() + ")"));
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("a row for table " + table + " is not a JSON object");
        }
        ObjectNode object = (ObjectNode) node;
        JsonNode op = object.remove(OP_COLUMN);
        int sign;
        if (op == null || op.isNull()) {
            sign = 0;
        } else if (op.canConvertToInt() && op.isIntegralNumber() && (op.intValue() == 0 || op.intValue() == 1)) {
            sign = op.intValue();
        } else {
            throw new IllegalArgumentException("a row for table " + table + " has " + OP_COLUMN + " = " + op
                    + "; expected 0 (upsert) or 1 (delete)");
        }
        object.put(DELETE_SIGN_COLUMN, sign);
        try {
            return MAPPER.writeValueAsString(object);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a parsed JSON tree back to text", e);
        }
    }
}
