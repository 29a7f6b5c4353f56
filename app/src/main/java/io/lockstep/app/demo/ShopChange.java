package io.lockstep.app.demo;

import io.lockstep.app.demo.ShopSchema.Table;
import java.util.Map;

/**
 * One row change of a generated source transaction, as Debezium reports it: a create ({@code before}
 * {@code null}), an update (both images, whole rows) or a delete ({@code after} {@code null}). Images are
 * normalized rows (see {@link ShopSchema}); they are read-only.
 *
 * @param table the changed table
 * @param op Debezium's operation
 * @param before the row before the change, or {@code null} for a create
 * @param after the row after the change, or {@code null} for a delete
 */
public record ShopChange(Table table, Op op, Map<String, Object> before, Map<String, Object> after) {

    /** Debezium's {@code op} values for row changes. */
    public enum Op {
        /** Insert ({@code "c"}). */
        CREATE("c"),
        /** Update ({@code "u"}). */
        UPDATE("u"),
        /** Delete ({@code "d"}). */
        DELETE("d");

        private final String code;

        Op(String code) {
            this.code = code;
        }

        /** @return the {@code op} field value */
        public String code() {
            return code;
        }
    }

    /** @return the row as the sink should load it: {@code after}, or for a delete {@code before} */
    public Map<String, Object> loadedImage() {
        return op == Op.DELETE ? before : after;
    }
}
