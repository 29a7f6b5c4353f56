package io.lockstep.e2e.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockstep.e2e.workload.OltpSchema;
import io.lockstep.e2e.workload.OltpSchema.Column;
import io.lockstep.e2e.workload.OltpSchema.Kind;
import io.lockstep.e2e.workload.OltpSchema.Table;
import io.lockstep.emulator.StarRocksEmulator;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rows of the workload's tables in one canonical text form per value, read from the source database (JDBC) and
 * from the target (the emulator's SQL), so that the two compare value by value: decimals without trailing zeros,
 * timestamps as {@code yyyy-MM-dd HH:mm:ss.ffffff} (TIMESTAMPTZ in UTC), JSON re-serialized, bytes in base64 (the form
 * Debezium's JSON converter gives and the target VARCHAR keeps).
 */
public final class TableContents {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

    private TableContents() {
    }

    /**
     * @return per key ({@code k1:k2}), the row's values as canonical text, for one source table
     * @throws SQLException when the query fails
     */
    public static Map<String, List<String>> source(Connection connection, Table table) throws SQLException {
        Map<String, List<String>> rows = new TreeMap<>();
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT " + table.columnList() + " FROM " + table.name())) {
            while (result.next()) {
                List<String> values = new ArrayList<>();
                for (int i = 0; i < table.columns().size(); i++) {
                    Column column = table.columns().get(i);
                    Object value = switch (column.kind()) {
                        case TIMESTAMP -> result.getObject(i + 1, LocalDateTime.class);
                        case TIMESTAMPTZ -> sourceInstant(result, i + 1);
                        case DATE -> result.getObject(i + 1, LocalDate.class);
                        case BYTES -> result.getBytes(i + 1);
                        case JSON, TEXT -> result.getString(i + 1);
                        default -> result.getObject(i + 1);
                    };
                    values.add(canonical(column.kind(), value));
                }
                rows.put(key(table, values), values);
            }
        }
        return rows;
    }

    /** PostgreSQL TIMESTAMPTZ reads as an OffsetDateTime; MariaDB TIMESTAMP (session time zone UTC) as local. */
    private static Object sourceInstant(ResultSet result, int index) throws SQLException {
        if (result.getMetaData().getColumnTypeName(index).equalsIgnoreCase("timestamptz")) {
            return result.getObject(index, OffsetDateTime.class);
        }
        return result.getObject(index, LocalDateTime.class);
    }

    /** @return per key, the row's values as canonical text, for one target table */
    public static Map<String, List<String>> target(StarRocksEmulator target, Table table) {
        Map<String, List<String>> rows = new TreeMap<>();
        for (List<Object> row : target.query("SELECT " + table.columnList() + " FROM "
                + OltpSchema.TARGET_DATABASE + "." + table.name()).rows()) {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < table.columns().size(); i++) {
                values.add(canonical(table.columns().get(i).kind(), row.get(i)));
            }
            rows.put(key(table, values), values);
        }
        return rows;
    }

    private static String key(Table table, List<String> values) {
        List<String> key = new ArrayList<>();
        for (int i = 0; i < table.keys().size(); i++) {
            key.add(values.get(i));
        }
        return String.join(":", key);
    }

    /** @return the canonical text of a value read from either side */
    static String canonical(Kind kind, Object value) {
        if (value == null) {
            return "NULL";
        }
        switch (kind) {
            case DECIMAL: {
                BigDecimal decimal = value instanceof BigDecimal d ? d : new BigDecimal(value.toString());
                return decimal.signum() == 0 ? "0" : decimal.stripTrailingZeros().toPlainString();
            }
            case INTEGER:
                return Long.toString(((Number) value).longValue());
            case BOOLEAN:
                if (value instanceof Number n) {
                    return Boolean.toString(n.intValue() != 0);
                }
                return value.toString();
            case DATE:
                return value instanceof java.sql.Date d ? d.toLocalDate().toString() : value.toString();
            case TIMESTAMP:
            case TIMESTAMPTZ:
                LocalDateTime at;
                if (value instanceof OffsetDateTime offset) {
                    at = offset.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
                } else if (value instanceof Timestamp timestamp) {
                    at = timestamp.toLocalDateTime();
                } else {
                    at = (LocalDateTime) value;
                }
                return DATE_TIME.format(at);
            case JSON:
                try {
                    JsonNode node = JSON.readTree(value.toString());
                    return JSON.writeValueAsString(node);
                } catch (Exception e) {
                    throw new IllegalStateException("a JSON value that does not parse", e);
                }
            case BYTES:
                return value instanceof byte[] bytes ? Base64.getEncoder().encodeToString(bytes) : value.toString();
            default:
                return value.toString();
        }
    }
}
