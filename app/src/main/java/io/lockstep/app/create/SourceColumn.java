package io.lockstep.app.create;

import java.io.Serializable;
import java.util.Map;
import java.util.Objects;

/**
 * One column of a source table as the source describes it, the input of table creation. It comes either from the
 * source database's catalog over JDBC (PostgreSQL {@code information_schema.columns}, MySQL/MariaDB
 * {@code information_schema.COLUMNS}), or from a Debezium event's Kafka Connect schema ({@code schemas.enable=true};
 * with {@code column.propagate.source.type} the native type is known too).
 *
 * @param name column name as in the source
 * @param sourceType the native type name in lower case without parameters ({@code varchar}, {@code int4},
 *     {@code numeric}, {@code timestamptz}, {@code int unsigned}, {@code enum}, {@code _int4} for a PostgreSQL
 *     array), or {@code null} when only the Connect schema is known
 * @param length the native type's length or precision (characters of a character type, digits of a decimal,
 *     fractional-second digits of a temporal type), or {@code null} when not given
 * @param scale a decimal's scale, or {@code null} when not given
 * @param nullable whether the column accepts NULL
 * @param connectType the Kafka Connect schema type ({@code int32}, {@code int64}, {@code string}, {@code bytes},
 *     {@code struct}, {@code array}, ...), or {@code null} when read over JDBC
 * @param semanticType the Connect schema name, a Debezium semantic type ({@code io.debezium.time.MicroTimestamp},
 *     {@code org.apache.kafka.connect.data.Decimal}, {@code io.debezium.data.Json}, ...), or {@code null}
 * @param parameters further facts, never {@code null}: the Connect schema's {@code parameters} (e.g.
 *     {@code allowed} of an enum, {@code connect.decimal.precision}), or from JDBC e.g. the full column type
 */
public record SourceColumn(String name, String sourceType, Integer length, Integer scale, boolean nullable,
        String connectType, String semanticType, Map<String, String> parameters) implements Serializable {

    /** @throws NullPointerException when the name is {@code null} */
    public SourceColumn {
        Objects.requireNonNull(name, "name");
        parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
    }
}
