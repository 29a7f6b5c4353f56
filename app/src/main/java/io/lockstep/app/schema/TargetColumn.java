package io.lockstep.app.schema;

import java.io.Serializable;
import java.util.Locale;
import java.util.Objects;

/**
 * One column of a target table, as the target describes it ({@code DESC `db`.`t`}: {@code Field}, {@code Type},
 * {@code Null}; StarRocks docs "DESC", Apache Doris docs "DESCRIBE"). Immutable.
 *
 * @param name the column name, lower case (StarRocks and Doris match column names case-insensitively)
 * @param type the type as the target prints it, e.g. {@code bigint(20)}, {@code varchar(64)},
 *     {@code decimal(12,2)}, {@code datetime}; {@code null} when the reader does not learn types (its values are
 *     then not checked, see {@link ValueRules})
 * @param nullable whether the column takes NULL ({@code true} when not known)
 */
public record TargetColumn(String name, String type, boolean nullable) implements Serializable {

    /** @throws NullPointerException without a name */
    public TargetColumn {
        name = Objects.requireNonNull(name, "name").toLowerCase(Locale.ROOT);
    }

    /** @return a column whose type and nullability are not known */
    public static TargetColumn named(String name) {
        return new TargetColumn(name, null, true);
    }
}
