package io.lockstep.app.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rows in every accepted form compare equal; load rows upsert and delete; differences name table and key. */
class ShopStateTest {

    @Test
    void valuesFromJsonAndFromJdbcNormalizeToTheSameRow() {
        ShopState fromJson = new ShopState();
        fromJson.applyLoadRow("orders", "{\"order_id\":7,\"customer_id\":3,\"status\":\"NEW\",\"total\":\"59.80\","
                + "\"item_count\":2,\"created_at\":\"2026-01-01 00:00:05\"}");
        ShopState fromJdbc = new ShopState();
        fromJdbc.upsert(ShopSchema.ORDERS, Map.of("order_id", 7L, "customer_id", 3L, "status", "NEW",
                "total", new BigDecimal("59.8"), "item_count", 2,
                "created_at", Timestamp.valueOf(LocalDateTime.of(2026, 1, 1, 0, 0, 5))));
        assertThat(fromJson).isEqualTo(fromJdbc);
        assertThat(fromJson.get(ShopSchema.ORDERS, List.of(7L)).get("total")).isEqualTo(new BigDecimal("59.80"));
    }

    @Test
    void aLoadRowWithOpOneDeletesItsKeyAndOthersReplaceTheRow() {
        ShopState state = new ShopState();
        state.applyLoadRow("order_items", "{\"order_id\":1,\"line_no\":1,\"sku\":\"A\",\"quantity\":1,\"price\":\"1.00\"}");
        state.applyLoadRow("order_items", "{\"order_id\":1,\"line_no\":2,\"sku\":\"B\",\"quantity\":1,\"price\":\"2.00\"}");
        state.applyLoadRow("order_items", "{\"order_id\":1,\"line_no\":1,\"sku\":\"C\",\"quantity\":4,\"price\":\"1.00\"}");
        state.applyLoadRow("order_items", "{\"order_id\":1,\"line_no\":2,\"sku\":\"B\",\"quantity\":1,\"price\":\"2.00\","
                + "\"__op\":1}");
        assertThat(state.rows(ShopSchema.ORDER_ITEMS)).containsOnlyKeys(List.of(1L, 1));
        assertThat(state.get(ShopSchema.ORDER_ITEMS, List.of(1L, 1))).containsEntry("sku", "C").containsEntry("quantity", 4);
    }

    @Test
    void differencesNameTableKeyAndColumnsButNotValues() {
        ShopState mine = new ShopState();
        mine.upsert(ShopSchema.CUSTOMERS, Map.of("customer_id", 1L, "name", "Ada", "email", "secret@example.com"));
        mine.upsert(ShopSchema.CUSTOMERS, Map.of("customer_id", 2L, "name", "Ben"));
        ShopState theirs = new ShopState();
        theirs.upsert(ShopSchema.CUSTOMERS, Map.of("customer_id", 1L, "name", "Ada", "email", "other@example.com"));
        theirs.upsert(ShopSchema.PAYMENTS, Map.of("payment_id", 5L, "order_id", 1L));
        assertThat(mine.differences(theirs, 10)).containsExactly(
                "customers key [1]: columns [email] differ",
                "customers key [2]: only in this state",
                "payments key [5]: only in the other state");
        assertThat(mine.differences(theirs, 1)).hasSize(1);
        assertThat(mine.differences(mine.copy(), 10)).isEmpty();
    }

    @Test
    void badRowsFailNamingTableAndColumn() {
        ShopState state = new ShopState();
        assertThatThrownBy(() -> state.applyLoadRow("orders", "{\"order_id\":\"x\"}"))
                .hasMessageContaining("table orders column order_id");
        assertThatThrownBy(() -> state.applyLoadRow("orders", "{\"order_id\":1,\"colour\":\"red\"}"))
                .hasMessage("table orders has no column 'colour'");
        assertThatThrownBy(() -> state.applyLoadRow("orders", "{\"status\":\"NEW\"}"))
                .hasMessage("row of table orders lacks key column order_id");
        assertThatThrownBy(() -> state.applyLoadRow("refunds", "{}"))
                .hasMessage("the shop schema has no table 'refunds'");
        assertThatThrownBy(() -> state.applyLoadRow("orders", "{\"order_id\":1,"))
                .hasMessage("malformed JSON row for table orders");
        assertThatThrownBy(() -> state.upsert(ShopSchema.ORDERS, Map.of("order_id", 1L, "total", "1.005")))
                .hasMessageContaining("table orders column total");
    }

    @Test
    void theSchemaMatchesExamplesShopSql() throws Exception {
        String sql = Files.readString(Path.of("..", "examples", "shop.sql")).replaceAll("\\s+", " ");
        for (ShopSchema.Table table : ShopSchema.TABLES) {
            assertThat(sql).contains("CREATE TABLE IF NOT EXISTS shop." + table.name() + " (");
            int start = sql.indexOf("shop." + table.name() + " (");
            String body = sql.substring(start, sql.indexOf("DISTRIBUTED BY", start));
            for (ShopSchema.Column column : table.columns()) {
                assertThat(body).as("table %s", table.name()).contains(" " + column.name() + " "
                        + (column.type() == ShopSchema.ColumnType.DECIMAL ? "DECIMAL(12, 2)" : column.type().name()));
            }
            assertThat(body).contains("PRIMARY KEY (" + String.join(", ", table.keyColumns()) + ")");
        }
    }
}
